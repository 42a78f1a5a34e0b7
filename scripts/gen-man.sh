#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Writes the man pages from the binary's own help: ssdbench(1) from `ssdbench --help`, and
# ssdbench-NAME(1) for every command of `ssdbench help --commands` that has help of its own, so that a
# new command gets its page without an edit here. The README's "Exit codes" table becomes each page's
# EXIT STATUS, and the examples of its "Using it" section (the one list of examples) each page's EXAMPLES:
# a command's own, and all of them in ssdbench(1). The options in the help come from the binary's table of
# every command's options (src/cli/cliopts.c), as the completions do. SEE ALSO names the other pages, the formats' of section 5 (scripts/gen-man5.sh) too.
# Run by `make man` (and `make install`).
#
#   scripts/gen-man.sh BINARY OUTDIR PREFIX
#
# The help's layout is read as: "usage:" lines (the synopsis), paragraphs (the description), a line
# ending in ':' after a blank line and before an indented one (a section, such as "options:"), whose
# indented lines are entries ("  -o, --output DIR   what it does", continued by deeper lines). The
# date is $SOURCE_DATE_EPOCH's (as dpkg-buildpackage sets it), else today's.
set -euo pipefail

prog=${0##*/}
if (($# != 3)); then
    echo "usage: $prog BINARY OUTDIR PREFIX" >&2
    exit 2
fi
bin=$1 out=$2 prefix=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
readme=$here/../README.md

version=$("$bin" --version | awk '{ print $2 }')
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" +%Y-%m-%d)
mkdir -p "$out"

# The README's exit code table as "CODE<tab>MEANING" lines.
exit_codes=$(awk '/^## Exit codes/ { on = 1; next } on && /^## / { exit }
    on && /^\| [0-9]+ \|/ { line = $0; sub(/^\| /, "", line); sub(/ \|$/, "", line)
        code = line; sub(/ \|.*/, "", code); sub(/^[0-9]+ \| /, "", line); print code "\t" line }' "$readme")
if [[ -z $exit_codes ]]; then
    echo "$prog: no exit code table under '## Exit codes' in $readme" >&2
    exit 1
fi

# The README's examples, the code block of "## Using it", as "COMMAND<tab>LINE<tab>COMMENT" lines.
examples=$(awk '/^## Using it/ { on = 1; next } on && /^## / { exit }
    on && /^```/ { if (block) exit; block = 1; next }
    block && /^ssdbench [a-z]/ {
        line = $0; c = ""
        if (match(line, /  +# /)) { c = substr(line, RSTART + RLENGTH); line = substr(line, 1, RSTART - 1) }
        split(line, w, / /); print w[2] "\t" line "\t" c
    }' "$readme")
if [[ -z $examples ]]; then
    echo "$prog: no examples in the code block under '## Using it' in $readme" >&2
    exit 1
fi

# The commands: NAME<tab>ARGS<tab>SUMMARY; those with help of their own get a page.
mapfile -t table < <("$bin" help --commands)
pages=()
for row in "${table[@]}"; do
    name=${row%%$'\t'*}
    if "$bin" help "$name" >/dev/null 2>&1; then
        pages+=("$name")
    fi
done

# Roff from help text on stdin. Variables: title, name (NAME line), summary, version, date.
to_roff() {
    awk -v q="'" -v title="$1" -v name="$2" -v summary="$3" -v version="$version" -v date="$date" '
    function esc(s) {
        gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s)
        if (substr(s, 1, 1) == "." || substr(s, 1, 1) == q) s = "\\&" s
        return s
    }
    # "-o, --output DIR" as bold options and italic values; in a list of commands, the name bold.
    function tag(s, bold_first,   n, i, w, t, sep) {
        n = split(s, w, / /); t = ""
        for (i = 1; i <= n; i++) {
            sep = (i > 1) ? " " : ""
            if (w[i] ~ /^-/ || (i == 1 && bold_first)) t = t sep "\\fB" esc(w[i]) "\\fR"
            else t = t sep "\\fI" esc(w[i]) "\\fR"
        }
        return t
    }
    function indent(s) { match(s, /^ */); return RLENGTH }
    function endverb() { if (verb) { print ".fi"; print ".RE"; verb = 0 } }
    { line[++n] = $0 }
    END {
        printf ".TH \"%s\" 1 \"%s\" \"ssdbench %s\" \"ssdbench manual\"\n", toupper(title), date, version
        print ".nh"
        print ".ad l"
        print ".SH NAME"
        print esc(name) " \\- " esc(summary)
        print ".SH SYNOPSIS"
        i = 1
        while (i <= n && (line[i] ~ /^usage: / || (i > 1 && line[i] ~ /^       /))) {
            s = line[i]; sub(/^usage: */, "", s); sub(/^ */, "", s)
            if (s ~ /^ssdbench/ && i > 1) print ".br"
            if (s ~ /^ssdbench/) { sub(/^ssdbench ?/, "", s); printf "\\fBssdbench\\fR " }
            print esc(s)
            i++
        }
        print ".SH DESCRIPTION"
        section = ""; entries = 0; para = 0
        for (; i <= n; i++) {
            s = line[i]
            if (s == "") { endverb(); para = 1; continue }
            if (s ~ /^[A-Za-z][^:]*:$/ && line[i - 1] == "" && line[i + 1] ~ /^  /) {
                endverb(); section = substr(s, 1, length(s) - 1); entries = 1; para = 0
                paren = ""
                if (match(section, / \(.*\)$/)) {
                    paren = substr(section, RSTART + 2, RLENGTH - 3); section = substr(section, 1, RSTART - 1)
                }
                print ".SH " esc(toupper(section))
                if (paren != "") print esc(toupper(substr(paren, 1, 1)) substr(paren, 2)) ":"
                continue
            }
            if (entries && s ~ /^  /) {
                if (indent(s) > 8 && s !~ /^ +-/ && cur) { t = s; sub(/^ */, "", t); print esc(t); continue }
                t = s; sub(/^ */, "", t)
                d = t
                if (match(t, /  +/)) { d = substr(t, RSTART + RLENGTH); t = substr(t, 1, RSTART - 1) } else d = ""
                print ".TP"
                print tag(t, section == "commands")
                if (d != "") print esc(d)
                cur = 1; para = 0
                continue
            }
            cur = 0
            if (s !~ /^  /) {
                endverb(); entries = 0
                if (para) { print ".PP"; para = 0 }
                print esc(s)
                continue
            }
            if (!verb) { print ".RS"; print ".nf"; verb = 1 }
            print esc(s)
        }
        endverb()
    }'
}

# EXAMPLES: those of command $1 (all of them for ssdbench itself), each its comment and its line.
examples_section() {
    local self=$1 cmd line comment first=1
    while IFS=$'\t' read -r cmd line comment; do
        [[ $self == ssdbench || $self == "ssdbench-$cmd" ]] || continue
        ((first)) && echo ".SH EXAMPLES"
        first=0
        echo ".PP"
        [[ -n $comment ]] && printf '%s:\n.br\n' "$(sed 's/\\/\\e/g; s/-/\\-/g; s/^[.'"'"']/\\\&&/' <<<"$comment")"
        printf '.RS 4\n\\fB%s\\fR\n.RE\n' "$(sed 's/\\/\\e/g; s/-/\\-/g' <<<"$line")"
    done <<<"$examples"
}

# The sections every page ends with. $1: the page's own name, to leave out of SEE ALSO.
common_sections() {
    local self=$1 p first=1
    echo ".SH EXIT STATUS"
    while IFS=$'\t' read -r code meaning; do
        meaning=${meaning//\`/}
        meaning=${meaning//\\|/|}
        printf '.TP\n.B %s\n%s\n' "$code" "$(sed 's/\\/\\e/g; s/-/\\-/g' <<<"$meaning")"
    done <<<"$exit_codes"
    cat <<EOF
.SH ENVIRONMENT
.TP
.B SSDBENCH_PROFILE_PATH
Directories (colon separated) where \\fB\\-\\-profile\\fR \\fINAME\\fR is looked for after
\\fI./profiles\\fR and before the installed profiles.
.SH FILES
.TP
.I ./profiles
Profiles of the current directory, looked for first.
.TP
.I ${prefix//-/\\-}/share/ssdbench/profiles
The shipped profiles (\\fBssdbench profiles\\fR lists them).
.TP
.I ${prefix//-/\\-}/share/ssdbench/schema
The JSON Schemas of the result file and of the manifest.
EOF
    examples_section "$self"
    echo ".SH SEE ALSO"
    if [[ $self != ssdbench ]]; then
        printf '.BR ssdbench (1)'
        first=0
    fi
    for p in "${pages[@]}"; do
        [[ ssdbench-$p == "$self" ]] && continue
        ((first)) || printf ',\n'
        printf '.BR ssdbench\\-%s (1)' "$p"
        first=0
    done
    # The formats' pages (section 5, scripts/gen-man5.sh).
    printf ',\n.BR ssdbench\\-profile (5),\n.BR ssdbench\\-result (5)'
    printf '\n.PP\nThe README and docs/ of the source tree (in the Debian package, /usr/share/doc/ssdbench)\n'
    printf 'describe the job parameters, profiles, result format, reports and checks in full.\n'
}

{
    "$bin" --help | to_roff ssdbench ssdbench "storage benchmark for block devices and files"
    common_sections ssdbench
} >"$out/ssdbench.1"
for row in "${table[@]}"; do
    IFS=$'\t' read -r name _ summary <<<"$row"
    for p in "${pages[@]}"; do
        if [[ $p == "$name" ]]; then
            {
                "$bin" help "$name" | to_roff "ssdbench-$name" "ssdbench-$name" "$summary"
                common_sections "ssdbench-$name"
            } >"$out/ssdbench-$name.1"
        fi
    done
done
