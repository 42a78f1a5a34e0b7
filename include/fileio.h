/* SPDX-License-Identifier: MIT */
/*
 * Whole files, in one home: read to the end into a growing buffer, a small text attribute (sysfs)
 * and the number it holds, and a file replaced whole (a temporary file, synced, then renamed). Each
 * returns 0 (or a count) or -errno, as liburing does; none prints: the caller words the message.
 */
#ifndef SSDBENCH_FILEIO_H
#define SSDBENCH_FILEIO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Reads fd to its end into *buf (*cap bytes, grown as needed, or NULL and 0 to start), appending at
 * *len, and keeps at least extra bytes free after the data (the first of them set to 0: a NUL for
 * text; a parser's padding). size_hint is the size expected (stat's), or 0: the buffer is grown to
 * hold it first, and a read shorter than asked is taken as the end, which saves the read that
 * returns 0. fd stays open. Returns 0, or -errno (-ENOMEM where the buffer cannot grow); *buf is
 * the caller's to free either way.
 */
int fileio_read_fd(int fd, char **buf, size_t *cap, size_t *len, size_t size_hint, size_t extra);

/*
 * Reads up to len bytes of the file at path into buf (no NUL added). Returns the count read, or
 * -errno (-ENAMETOOLONG is the caller's, for a path it could not build).
 */
ssize_t fileio_read_some(const char *path, char *buf, size_t len);

/*
 * The unsigned decimal number that is the whole text of the file at path, blanks around it
 * ignored (a sysfs attribute: "123\n"). Returns 0, -errno where the file cannot be read, or
 * -EINVAL where the text is empty, signed, not a number or out of range (*v then unspecified).
 */
int fileio_read_u64(const char *path, uint64_t *v);

/*
 * Replaces the file at path whole, never leaving a partial file under that name: fill(fd, arg)
 * writes the content into the temporary file tmp (a path in path's directory, which this may
 * change: one that ends in "XXXXXX" is made unique as by mkstemp, another is created or truncated),
 * which gets mode less the umask, is synced, closed and renamed to path. fill returns 0 or -errno
 * and leaves fd open. Returns 0, or -errno with *step (if step is not NULL) "create" where no
 * temporary file was made, else "write" (the temporary file removed again); whatever path named
 * is then as it was. Syncing the directory, so that the new name survives a crash, is the caller's.
 */
int fileio_replace(const char *path, char *tmp, mode_t mode, int (*fill)(int fd, const void *arg),
		   const void *arg, const char **step);

#endif
