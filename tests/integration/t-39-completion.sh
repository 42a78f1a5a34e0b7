#!/usr/bin/env bash
# Completion and man pages from the option table: `ssdbench completion --list` walks the table, and
#   (a) in an interactive bash with `ssdbench completion bash` loaded, every enumerated option of every
#       command completes its values (a comma list its next value, a dimension its values among the
#       job parameters), in both "--opt VALUE" and "--opt=VALUE" forms, and every `--set NAME=` of a
#       job parameter with a closed list completes that list, as bash splits the word at '=' and not;
#   (b) fish (where installed) the same, through `complete -C`;
#   (c) zsh (where installed) the same, typed into an interactive zsh on a pseudo-terminal;
#   (d) the man pages of scripts/gen-man.sh render with no warning from man --warnings nor groff -ww,
#       every option of the table appears in its command's page, and each page's EXAMPLES holds the
#       README's examples of that command.
# run-all: concurrent
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"
need_ssdbench
cd "$TMPDIR"

"$SSDBENCH" completion --list >list.txt
assert_ge "$(grep -c '^option' list.txt)" 100 "options in the table"
assert_ge "$(awk -F '\t' '$1 == "param" && $3 != ""' list.txt | wc -l)" 8 "job parameters with a closed list"
# The cases: "CMD<TAB>OPTION<TAB>KIND<TAB>VALUES" of the enumerated options.
awk -F '\t' '$1 == "option" && ($5 == "enum" || $5 == "list" || $5 == "dim") { print $2 "\t" $3 "\t" $5 "\t" $6 }' \
    list.txt >enum.txt
awk -F '\t' '$1 == "param" && $3 != "" { print $2 "\t" $3 }' list.txt >params.txt
for o in "run --rw" "run --engine" "report --format" "run --progress" "report --layout" "verify --progress" \
    "compare --format" "check --format" "report --units" "run --direct"; do
    grep -q "^${o% *}	${o#* }	" enum.txt || fail "'$o' is not an enumerated option of the table"
done
grep -q '^rw	read write randread randwrite rw randrw stride-read stride-write trim randtrim$' params.txt ||
    fail "--set rw= values: $(grep '^rw	' params.txt)"
ok "the table: $(wc -l <enum.txt) enumerated options, $(wc -l <params.txt) job parameters with values"

# check_cases SHELL FILE MIN: every "CASE<TAB>GOT<TAB>WANT" line of FILE has GOT == WANT, and at least MIN.
check_cases() {
    local n=0 case got want
    while IFS=$'\t' read -r case got want; do
        [[ $got == "$want" ]] || fail "$1: $case completes '$got', not '$want'"
        n=$((n + 1))
    done <"$2"
    assert_ge "$n" "$3" "$1 cases"
    ok "$1: $n completions of enumerated options and --set NAME= values as the table says"
}

# (a) bash: each case prints "CASE<TAB>GOT<TAB>WANT", words sorted.
"$SSDBENCH" completion bash >ssdbench.bash
bash -n ssdbench.bash || fail "completion bash: not valid bash"
PATH=$(dirname "$SSDBENCH"):$PATH bash --norc --noprofile -i -c '
    . ./ssdbench.bash
    [[ $(complete -p ssdbench) == "complete -F _ssdbench ssdbench" ]] || { echo "NOT LOADED"; exit 1; }
    c() { COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _ssdbench; printf "%s\n" "${COMPREPLY[@]}" | sort | paste -sd " "; }
    s() { tr " " "\n" <<<"$1" | sort | paste -sd " "; }
    while IFS=$'\''\t'\'' read -r cmd opt kind vals; do
        first=${vals%% *}
        if [[ $kind == enum ]]; then
            printf "%s\t%s\t%s\n" "$cmd $opt" "$(c ssdbench "$cmd" "$opt" "")" "$(s "$vals")"
            printf "%s\t%s\t%s\n" "$cmd $opt=${first:0:2}" "$(c ssdbench "$cmd" "$opt" = "${first:0:2}")" \
                "$(s "$(for v in $vals; do [[ $v == "${first:0:2}"* ]] && echo "$v"; done)")"
        elif [[ $kind == list ]]; then
            printf "%s\t%s\t%s\n" "$cmd $opt $first," "$(c ssdbench "$cmd" "$opt" "$first,")" \
                "$(s "$(for v in $vals; do echo "$first,$v"; done)")"
        else
            got=$(c ssdbench "$cmd" "$opt" "")
            miss=$(for v in $vals; do [[ " $got " == *" $v "* ]] || echo "$v"; done)
            printf "%s\t%s\t%s\n" "$cmd $opt (dimension)" "${miss:-all}" "all"
        fi
    done <enum.txt
    while IFS=$'\''\t'\'' read -r name vals; do
        printf "%s\t%s\t%s\n" "run --set $name=" "$(c ssdbench run --set "$name" =)" "$(s "$vals")"
        printf "%s\t%s\t%s\n" "run --set $name=${vals:0:1} (one word)" "$(c ssdbench run --set "$name=${vals:0:1}")" \
            "$(s "$(for v in $vals; do [[ $v == "${vals:0:1}"* ]] && echo "$name=$v"; done)")"
        printf "%s\t%s\t%s\n" "verify --set $name=" "$(c ssdbench verify --set "$name" =)" "$(s "$vals")"
    done <params.txt
    printf "%s\t%s\t%s\n" "run --set rw=rand" "$(c ssdbench run --set rw = rand)" "randread randrw randtrim randwrite"
    printf "%s\t%s\t%s\n" "run --set rwmix" "$(c ssdbench run --set rwmix)" "rwmix_write="
    printf "%s\t%s\t%s\n" "run --profile cdm-n" "$(c ssdbench run --profile cdm-n)" "cdm-nvme"
    printf "%s\t%s\t%s\n" "completion" "$(c ssdbench completion "")" "bash fish zsh"
' >bash.txt 2>bash.err || { cat bash.txt bash.err; fail "the bash completion (above)"; }
check_cases bash bash.txt 40
echo "ssdbench run --rw <TAB>: $(grep -P '^run --rw\t' bash.txt | cut -f 2)"
echo "ssdbench run --set rw=rand<TAB>: $(grep -P '^run --set rw=rand\t' bash.txt | cut -f 2)"

# (b) fish
if command -v fish >/dev/null; then
    "$SSDBENCH" completion fish >ssdbench.fish
    fish -n ssdbench.fish || fail "completion fish: not valid fish"
    {
        echo "source ssdbench.fish"
        while IFS=$'\t' read -r cmd opt kind vals; do
            [[ $kind == enum ]] || continue
            printf 'echo "%s %s"\\t(complete -C "ssdbench %s %s " | string replace -r "\\t.*" "" | sort | string join " ")\\t"%s"\n' \
                "$cmd" "$opt" "$cmd" "$opt" "$(tr ' ' '\n' <<<"$vals" | sort | paste -sd ' ')"
        done <enum.txt
        while IFS=$'\t' read -r name vals; do
            printf 'echo "run --set %s="\\t(complete -C "ssdbench run --set %s=" | string replace -r "\\t.*" "" | sort | string join " ")\\t"%s"\n' \
                "$name" "$name" "$(for v in $vals; do echo "$name=$v"; done | sort | paste -sd ' ')"
        done <params.txt
    } >cases.fish
    PATH=$(dirname "$SSDBENCH"):$PATH fish --no-config cases.fish >fish.txt 2>fish.err ||
        { cat fish.err; fail "the fish completion (above)"; }
    check_cases fish fish.txt 20
else
    skip_part "fish completion: fish is not installed (scripts/install-deps.sh installs it)"
fi

# (c) zsh: an interactive zsh on a pty (zsh/zpty) with compinit and the script in $fpath, TAB typed after
# each line; compadd is wrapped to print what it is handed (as zsh-capture-completion does).
if command -v zsh >/dev/null && zsh -f -c 'zmodload zsh/zpty' 2>/dev/null; then
    mkdir zfunc
    "$SSDBENCH" completion zsh >zfunc/_ssdbench
    zsh -n zfunc/_ssdbench || fail "completion zsh: not valid zsh"
    head -n 1 zfunc/_ssdbench | grep -qx '#compdef ssdbench' || fail "completion zsh: no #compdef line"
    cat >complete.zsh <<'ZSH'
# zsh -f complete.zsh FPATHDIR LINE: the completions of LINE, one a line.
zmodload zsh/zpty || exit 3
zpty z zsh -f -i
# -D: no dump file. (compinit -d FILE writes its dump beside FILE and moves it over FILE: with
# /dev/null that replaced the device node with a regular file.)
zpty -w z "fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w z 'bindkey "^I" complete-word'
zpty -w z 'null-line() { echo -E - $'"'"'\0'"'"' }; compprefuncs=( null-line ); comppostfuncs=( null-line exit )'
zpty -w z 'zstyle ":completion:*" list-grouped false; zstyle ":completion:*" insert-tab false'
zpty -w z 'compadd() { if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then builtin compadd "$@"; return $?; fi
    typeset -a __hits; builtin compadd -A __hits "$@"; local r=$?
    (( $#__hits )) && print -rl -- "<<" $__hits ">>"; return r }'
zpty -w -n z "$2"$'\t'
while zpty -r z; do :; done | awk '/^<<\r?$/ { on = 1; next } /^>>\r?$/ { on = 0; next } on { sub(/\r$/, ""); print }'
zpty -d z
ZSH
    # A pty session that never ends (seen once on a loaded machine) is tried once more.
    zc() {
        local out try
        for try in 1 2; do
            if out=$(PATH=$(dirname "$SSDBENCH"):$PATH timeout 20 zsh -f complete.zsh "$TMPDIR/zfunc" "$1"); then
                sort -u <<<"$out" | paste -sd ' '
                return 0
            fi
            warn "zsh: '$1': try $try timed out"
        done
        echo "(timed out)"
    }
    srt() { tr ' ' '\n' <<<"$1" | sort -u | paste -sd ' '; }
    {
        while IFS=$'\t' read -r cmd opt kind vals; do
            [[ $kind == enum ]] || continue
            printf '%s\t%s\t%s\n' "$cmd $opt" "$(zc "ssdbench $cmd $opt ")" "$(srt "$vals")"
        done <enum.txt
        while IFS=$'\t' read -r name vals; do
            printf '%s\t%s\t%s\n' "run --set $name=" "$(zc "ssdbench run --set $name=")" "$(srt "$vals")"
        done <params.txt
        printf '%s\t%s\t%s\n' "run --set rw=rand" "$(zc "ssdbench run --set rw=rand")" "randread randrw randtrim randwrite"
        printf '%s\t%s\t%s\n' "report --charts lines,b" "$(zc "ssdbench report --charts lines,b")" "bars"
        printf '%s\t%s\t%s\n' "run --pro" "$(zc "ssdbench run --pro")" "--profile --progress"
    } >zsh.txt
    check_cases zsh zsh.txt 30
else
    skip_part "zsh completion: zsh with zsh/zpty is not installed (scripts/install-deps.sh installs it)"
fi

# (d) the man pages
need_cmd man groff
"$REPO/scripts/gen-man.sh" "$SSDBENCH" man /usr
for p in man/*.1; do
    MANROFFSEQ='' MANWIDTH=100 man --warnings -l "$p" >man.txt 2>manerr.txt || fail "man -l ${p##*/}"
    [[ ! -s manerr.txt ]] || { cat manerr.txt; fail "man --warnings on ${p##*/} (above)"; }
    groff -man -ww -z -t "$p" >groff.txt 2>&1 || fail "groff on ${p##*/}: $(cat groff.txt)"
    [[ ! -s groff.txt ]] || fail "groff -ww on ${p##*/}: $(cat groff.txt)"
    cp man.txt "${p%.1}.txt"
done
n=0
while IFS='|' read -r cmd opt short; do
    page=man/ssdbench-$cmd.txt
    [[ -f $page ]] || fail "no man page for $cmd"
    grep -q -- "$opt\b" "$page" || fail "ssdbench-$cmd(1) does not name $opt"
    [[ -z $short ]] || grep -q -- "$short, $opt" "$page" || fail "ssdbench-$cmd(1) does not name $short, $opt"
    n=$((n + 1))
done < <(awk -F '\t' '$1 == "option" { print $2 "|" $3 "|" $4 }' list.txt)
ok "every one of the table's $n options is in its command's man page"
m=0
while IFS= read -r line; do
    cmd=$(awk '{ print $2 }' <<<"$line")
    for page in "man/ssdbench-$cmd.txt" man/ssdbench.txt; do
        # (a long line wraps: compared with its whitespace as single spaces)
        sed -n '/^EXAMPLES$/,/^SEE ALSO$/p' "$page" | tr -s ' \n' '  ' | grep -qF -- "$line" ||
            fail "${page##*/}: EXAMPLES lacks '$line'"
    done
    m=$((m + 1))
done < <(awk '/^## Using it/ { on = 1; next } on && /^```/ { if (b) exit; b = 1; next }
    b && /^ssdbench [a-z]/ { sub(/  +# .*/, ""); print }' "$REPO/README.md")
assert_ge "$m" 10 "README examples"
ok "the README's $m examples are in the EXAMPLES of their command's page and of ssdbench(1)"
sed -n '/^EXAMPLES$/,/^SEE ALSO$/p' man/ssdbench-report.txt
pass
