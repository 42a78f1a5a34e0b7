#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The documentation is self-contained and names only what exists: the README, docs/, the help of every
# command, the comments of src/, include/, tests/ and scripts/, the schemas and the profiles
#   (a) send no reader to a document the repository does not have ("SPEC section 5", ../shared/);
#   (b) name only repository paths that exist (src/report/report.c, docs/profiles.md, ...);
#   (c) link only to files and headings that exist (README.md#safety);
#   (d) name in comments only functions that exist: `name()` anywhere, and in a header's comments
#       every identifier with a module's prefix (worker_*, hist_*, ...);
#   (e) close every header's include guard at its end (nothing declared after the #endif);
#   (f) name only options that some `ssdbench help COMMAND` documents;
#   (g) and docs/architecture.md names every source file of src/ (and each header without a .c).
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"
need_ssdbench
need_cmd python3 git

cd "$REPO"
git ls-files >/dev/null 2>&1 || skip "not a git checkout: the files to check are those git tracks"
# every command with help of its own (`help --commands` lists them; help itself has none)
for c in $("$SSDBENCH" help --commands | cut -f 1); do
	"$SSDBENCH" help "$c" 2>/dev/null || true
done >"$TMPDIR/help.txt"
"$SSDBENCH" --help >>"$TMPDIR/help.txt"

python3 - "$TMPDIR/help.txt" <<'PY' || fail "dead references (above)"
import os, re, subprocess, sys

help_text = open(sys.argv[1]).read()
files = [f for f in subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], capture_output=True,
                                   text=True, check=True).stdout.split()
         if os.path.isfile(f) and not f.startswith(("tests/fixtures/", "tests/fuzz/corpus/"))]
text = {f: open(f, errors="replace").read() for f in files}
bad = []

def line_of(s, pos):
    return s.count("\n", 0, pos) + 1

def c_comments(s):
    for m in re.finditer(r"/\*.*?\*/|//[^\n]*", s, flags=re.S):
        yield m.start(), m.group(0)

def strip_c_comments(s):
    return re.sub(r"//[^\n]*", "", re.sub(r"/\*.*?\*/", "", s, flags=re.S))

def prose(f, s):
    """(offset, text) of what a reader reads: comments, docs, strings of the help, JSON."""
    if f.endswith((".c", ".h")):
        yield from c_comments(s)
        if f.startswith("src/cli/"):
            for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"', strip_c_comments(s)):
                yield 0, m.group(0)   # (line numbers of strings are not kept)
    elif f.endswith((".md", ".json")):
        yield 0, s
    elif f.endswith(".sh") or f in ("Makefile",) or f.startswith(".ci/"):
        for m in re.finditer(r"#[^\n]*", s):
            yield m.start(), m.group(0)

# (a) documents the repository does not have
for f, s in text.items():
    if f == "tests/integration/t-02-docs.sh":
        continue   # its own examples
    for off, t in prose(f, s):
        for m in re.finditer(r"\bSPEC\b(?!_)|\.\./shared/|/work/shared", t):
            bad.append(f"{f}:{line_of(s, off) + line_of(t, m.start()) - 1}: names a document outside the "
                       f"repository: '{t[max(0, m.start() - 20):m.end() + 20].strip()}'")

# (b) repository paths that do not exist. Placeholders (NAME, LAYER, NN, <x>, *) and the example
# paths of messages are not paths; a program built from a source of the same name is.
top = r"(?:src|include|tests|docs|schema|scripts|profiles)"
examples = {"profiles/x.json"}
for f, s in text.items():
    for off, t in prose(f, s):
        for m in re.finditer(rf"(?<![\w./$-]){top}/[\w./<>*$-]*[\w*>]", t):
            p = m.group(0)
            if re.search(r"[A-Z]{2,}|<|\*|\$", p) or p in examples or "fuzz_" in p:
                continue
            if not os.path.exists(p) and not os.path.exists(p + ".c"):
                bad.append(f"{f}:{line_of(s, off) + line_of(t, m.start()) - 1}: no such path '{p}'")

# (c) markdown links: the file, and the heading of an anchor (GitHub's slugs)
def slugs(md):
    out = set()
    for h in re.findall(r"^#+ (.*)$", md, flags=re.M):
        out.add(re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-"))
    return out
for f, s in text.items():
    if not f.endswith(".md"):
        continue
    for m in re.finditer(r"\]\(([^)\s]+)\)", s):
        target = m.group(1)
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
        where = f"{f}:{line_of(s, m.start())}"
        if not os.path.exists(dest):
            bad.append(f"{where}: link to '{target}': no such file")
        elif anchor and dest.endswith(".md") and anchor not in slugs(open(dest).read()):
            bad.append(f"{where}: link to '{target}': no heading '{anchor}' in {dest}")

# (d) functions named in comments
code = set()
for f, s in text.items():
    if f.endswith((".c", ".h")):
        code |= set(re.findall(r"\b\w+\b", strip_c_comments(s)))
modules = {os.path.basename(f)[:-2] for f in files if f.startswith("include/") and f.endswith(".h")}
for f, s in text.items():
    if not f.endswith((".c", ".h")):
        continue
    for off, c in c_comments(s):
        for m in re.finditer(r"\b([a-z]\w*_\w+)(?![\w.])(\(\))?", c):
            name = m.group(1)
            named = m.group(2) or (f.startswith("include/") and name.split("_")[0] in modules)
            if named and name not in code:
                bad.append(f"{f}:{line_of(s, off) + line_of(c, m.start()) - 1}: no function or name '{name}'")

# (e) include guards
for f, s in text.items():
    if f.endswith(".h") and re.search(r"^#ifndef \w+_H\n#define", s, flags=re.M):
        rest = s[s.rindex("#endif") + len("#endif"):]
        if re.sub(r"/\*.*?\*/|//[^\n]*", "", rest, flags=re.S).strip():
            bad.append(f"{f}: declarations after the include guard's #endif")

# (f) options the help does not know
known = set(re.findall(r"--[a-z][a-z0-9-]*[a-z0-9]", help_text))
# (on a line, what follows "ssdbench "; and code spans that start with an option)
for f in ["README.md"] + [f for f in files if f.startswith("docs/")]:
    for n, line in enumerate(text[f].split("\n"), 1):
        parts = re.findall(r"`(--[^`]*)`", line)
        if "ssdbench " in line:
            parts.append(line[line.index("ssdbench "):])
        for o in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9]", " ".join(parts)):
            if o not in known:
                bad.append(f"{f}:{n}: option {o}, which no 'ssdbench help' documents")

# (g) every source file named in docs/architecture.md (its base name), and every header that has no
# source file of its own
arch = text.get("docs/architecture.md", "")
def named(base):
    return re.search(r"(?<![\w.-])" + re.escape(base) + r"(?![\w.-])", arch) is not None
srcs = [f for f in files if f.startswith("src/") and f.endswith((".c", ".cc"))]
stems = {os.path.splitext(os.path.basename(f))[0] for f in srcs}
for f in srcs:
    if not named(os.path.basename(f)):
        bad.append(f"docs/architecture.md: does not name the source file {f}")
for f in files:
    if f.startswith("include/") and f.endswith(".h") and os.path.basename(f)[:-2] not in stems \
            and not named(os.path.basename(f)):
        bad.append(f"docs/architecture.md: does not name the header {f}, which has no source file")

for b in sorted(set(bad)):
    print(b)
print(f"{len(files)} files checked, {len(set(bad))} dead references")
sys.exit(1 if bad else 0)
PY
ok "no reference to a document, path, heading, function or option that does not exist"
pass
