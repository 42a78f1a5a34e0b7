#!/usr/bin/env bash
# A target reached through a symbolic link (as /dev/disk/by-id/... is) is named by the real device or
# file: its label, the result directory, info. A loop device through an absolute and a relative link,
# and a file through a link.
# run-all: concurrent
source "$(dirname "$0")/lib.sh"
need_root
need_ssdbench
need_cmd jq
dev=$(make_loop 32M)
name=$(basename "$dev")
mkdir "$TMPDIR/by-id"
ln -s "$dev" "$TMPDIR/by-id/disk-abs"
ln -s "../../../..$dev" "$TMPDIR/by-id/disk-rel"
[[ -b $TMPDIR/by-id/disk-rel ]] || ln -sf "$dev" "$TMPDIR/by-id/disk-rel"
for l in disk-abs disk-rel; do
	"$SSDBENCH" run --rw randread --bs 4k --runtime 200ms --progress never --output "$TMPDIR/out-$l" \
		"$TMPDIR/by-id/$l" >/dev/null 2>"$TMPDIR/err" || fail "run through $l: $(cat "$TMPDIR/err")"
	r=$(result_files "$TMPDIR/out-$l")
	assert_eq "$(jget "$r" .target.label)" "$name" "$l: labelled by the device"
	assert_eq "$(jget "$r" .target.path)" "$TMPDIR/by-id/$l" "$l: the path as given"
	assert_eq "$(basename "$(dirname "$r")" | cut -d- -f2)" "$name" "$l: the result directory names the device"
	"$SSDBENCH" info "$TMPDIR/by-id/$l" | grep -q "^label: *$name\$" || fail "info $l: not labelled $name"
done
head -c 4M /dev/urandom >"$TMPDIR/real.img"
ln -s real.img "$TMPDIR/file-link"
"$SSDBENCH" run --rw randread --bs 4k --runtime 200ms --progress never --output "$TMPDIR/out-file" \
	"$TMPDIR/file-link" >/dev/null 2>"$TMPDIR/err" || fail "run through a file's link: $(cat "$TMPDIR/err")"
r=$(result_files "$TMPDIR/out-file")
[[ $(jget "$r" .target.model) != null ]] || assert_eq "$(jget "$r" .target.label)" real.img "a file's link: labelled by the file"
pass
