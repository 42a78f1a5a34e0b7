#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Writes a section-5 man page (a file format) from a document of docs/: ssdbench-profile(5) from
# docs/profiles.md and ssdbench-result(5) from docs/result-format.md, so that the page says what the
# document says. Run by `make man` (and `make install`), beside scripts/gen-man.sh's section-1 pages.
#
#   scripts/gen-man5.sh BINARY MARKDOWN OUTFILE NAME SUMMARY
#
# The Markdown read is the subset docs/ uses: "#" title (left out: NAME and SUMMARY say it), "##"
# sections, "###" and deeper subsections, paragraphs, "-" and "1." lists (a list of links only, a
# table of contents, is left out), fenced and four-space indented code, pipe tables (a row becomes a
# tagged paragraph: its first cell the tag, the middle cells in parentheses, the last its text),
# `code`, **bold**, *emphasis* and [links] (their text; an http link's address after it). The
# version is the binary's, the date $SOURCE_DATE_EPOCH's (as dpkg-buildpackage sets it), else today's.
set -euo pipefail

prog=${0##*/}
if (($# != 5)); then
    echo "usage: $prog BINARY MARKDOWN OUTFILE NAME SUMMARY" >&2
    exit 2
fi
bin=$1 md=$2 out=$3 name=$4 summary=$5
version=$("$bin" --version | awk '{ print $2 }')
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)

awk -v q="'" -v name="$name" -v summary="$summary" -v version="$version" -v date="$date" '
# Roff-safe text: backslashes, hyphens (as minus signs, the way options are set), the few non-ASCII
# characters docs/ uses, and a leading dot or quote.
function esc(s) {
    gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); gsub(/°/, "\\(de", s)
    gsub(/±/, "\\(+-", s); gsub(/×/, "\\(mu", s); gsub(/—/, "\\(em", s); gsub(/–/, "\\(en", s)
    return s
}
function lead(s) { return (substr(s, 1, 1) == "." || substr(s, 1, 1) == q) ? "\\&" s : s }
# Inline Markdown: `code` bold, **bold**, *emphasis*, [text](target) as its text.
function inline(s,   out, c, i, j, t, u) {
    out = ""
    while (length(s)) {
        c = substr(s, 1, 1)
        if (c == "`" && (j = index(substr(s, 2), "`"))) {
            out = out "\\fB" esc(substr(s, 2, j - 1)) "\\fR"; s = substr(s, j + 2); continue
        }
        if (substr(s, 1, 2) == "**" && (j = index(substr(s, 3), "**"))) {
            out = out "\\fB" inline(substr(s, 3, j - 1)) "\\fR"; s = substr(s, j + 4); continue
        }
        if (c == "*" && substr(s, 2, 1) ~ /[A-Za-z]/ && (j = index(substr(s, 2), "*"))) {
            out = out "\\fI" inline(substr(s, 2, j - 1)) "\\fR"; s = substr(s, j + 2); continue
        }
        if (c == "[" && match(s, /^\[[^]]*\]\([^)]*\)/)) {
            t = substr(s, 1, RLENGTH); s = substr(s, RLENGTH + 1)
            i = index(t, "]("); u = substr(t, i + 2, length(t) - i - 2)
            out = out inline(substr(t, 2, i - 2))
            if (u ~ /^https?:/) out = out " <" esc(u) ">"
            continue
        }
        out = out esc(c); s = substr(s, 2)
    }
    return out
}
function emit(s) { print lead(s) }
# A pipe table row as cells, "\|" kept as a "|" inside a cell.
function cells(s, a,   n, i, t) {
    gsub(/\\\|/, "\001", s); sub(/^ *\| */, "", s); sub(/ *\| *$/, "", s)
    n = split(s, a, / *\| */)
    for (i = 1; i <= n; i++) gsub(/\001/, "|", a[i])
    return n
}
function row(s,   a, n, i, mid) {
    n = cells(s, a)
    print ".TP"
    emit(inline(a[1]))
    mid = ""
    for (i = 2; i < n; i++)
        if (a[i] != "") mid = mid (mid == "" ? "" : "; ") (head[i] != "" ? esc(head[i]) ": " : "") inline(a[i])
    if (mid != "") emit("(" mid ")" (n > 1 ? " " : ""))
    if (n > 1) emit(inline(a[n]))
}
# Text is gathered into buf and set at the end of its paragraph or list item, so that a `code` span
# may run across lines.
function flush() { if (buf != "") emit(inline(buf)); buf = "" }
function add(s) { sub(/^ +/, "", s); buf = buf (buf == "" ? "" : " ") s }
BEGIN {
    printf ".TH \"%s\" 5 \"%s\" \"ssdbench %s\" \"ssdbench manual\"\n", toupper(name), date, version
    print ".nh"; print ".ad l"
    print ".SH NAME"; print esc(name) " \\- " esc(summary)
    print ".SH DESCRIPTION"
}
fence {
    if ($0 ~ /^```/) { print ".fi"; print ".RE"; fence = 0; next }
    emit(esc($0)); next
}
/^```/ { flush(); print ".PP"; print ".RS 2"; print ".nf"; fence = 1; item = 0; next }
/^# / { next }
/^##+ / {
    flush(); item = 0; intable = 0; blank = 0
    level = index($0, " ") - 1; s = $0; sub(/^#+ */, "", s); gsub(/`/, "", s)
    print (level == 2 ? ".SH " toupper(esc(s)) : ".SS " esc(s)); next
}
/^\|/ {
    flush()
    if (!intable) { cells($0, head); intable = 1; next }
    if ($0 ~ /^\| *:?-+/) next
    row($0); next
}
{ intable = 0 }
/^$/ {
    flush()
    if (verb) { print ".fi"; print ".RE"; verb = 0 }
    blank = 1; next
}
verb || (blank && /^    / && !item) {
    if (!verb) { print ".PP"; print ".RS 2"; print ".nf"; verb = 1 }
    s = $0; sub(/^    /, "", s); emit(esc(s)); blank = 0; next
}
/^ *- \[[^]]*\]\(#[^)]*\) *$/ { next }
/^ *[-*] / {
    flush(); s = $0; sub(/^ *[-*] /, "", s)
    print ".IP \\(bu 2"; add(s); item = 1; blank = 0; next
}
/^ *[0-9]+\. / {
    flush(); s = $0; match(s, /^ *[0-9]+\./); num = substr(s, RSTART, RLENGTH); sub(/^ */, "", num)
    sub(/^ *[0-9]+\. /, "", s)
    print ".IP " num " 4"; add(s); item = 1; blank = 0; next
}
{
    if (blank) {
        # After a blank line, an indented line goes on the list item; one at the margin ends it.
        if (item && /^ /) print ".IP"
        else { print ".PP"; item = 0 }
    }
    add($0); blank = 0
}
END {
    flush()
    if (verb || fence) { print ".fi"; print ".RE" }
    print ".SH SEE ALSO"
    print ".BR ssdbench (1),"
    print ".BR ssdbench\\-run (1),"
    print ".BR ssdbench\\-report (1),"
    print (name == "ssdbench-profile") ? ".BR ssdbench\\-result (5)" : ".BR ssdbench\\-profile (5)"
}' "$md" >"$out"
