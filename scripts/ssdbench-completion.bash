# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Bash completion for ssdbench, installed as share/bash-completion/completions/ssdbench. Everything
# comes from the binary being completed, so that it always matches it: the commands from
# `ssdbench help --commands`, each command's options from `ssdbench help COMMAND`, profile names from
# `ssdbench profiles list`; targets are block devices (and NVMe generic devices) and files.

# The options of command $2 of binary $1, one "OPTION<tab>VALUE" a line: VALUE is the placeholder of
# an option that takes a value (DIR, FILE, mb|mib, ...), "VALUE" for a job parameter, empty for a flag.
# From the usage lines ("[--journal FILE]") and from the entries of the help's sections.
_ssdbench_options() {
    "$1" help "$2" 2>/dev/null | awk '
        /^usage:/ { usage = 1 }
        /^$/ { usage = 0 }
        usage {
            s = $0
            while (match(s, /--[a-z][a-z0-9-]*( [A-Z][A-Z=|.]*)?/)) {
                n = split(substr(s, RSTART, RLENGTH), w, / /)
                print w[1] "\t" (n > 1 ? w[2] : "")
                s = substr(s, RSTART + RLENGTH)
            }
            next
        }
        /^[A-Za-z].*:$/ { params = ($0 ~ /parameters/) }
        /^ +(-[A-Za-z], )?--[a-z]/ {
            tag = $0; sub(/^ +/, "", tag); sub(/  .*/, "", tag)
            n = split(tag, w, /,? /)
            val = params ? "VALUE" : ""
            for (i = 1; i <= n; i++) if (w[i] !~ /^-/) val = w[i]
            for (i = 1; i <= n; i++) if (w[i] ~ /^-/) print w[i] "\t" val
        }' | awk -F '\t' '!seen[$1]++'
}

# Block devices that may be targets, and the NVMe generic character devices (io_uring_cmd).
_ssdbench_devices() {
    local d
    for d in /dev/nvme*n* /dev/sd* /dev/vd* /dev/xvd* /dev/hd* /dev/mmcblk* /dev/pmem* /dev/nbd* \
        /dev/dm-* /dev/md* /dev/mapper/* /dev/zram* /dev/loop* /dev/ng*n*; do
        if [[ -b $d || ($d == /dev/ng* && -c $d) ]]; then
            printf '%s\n' "$d"
        fi
    done
}

# COMPREPLY from the words on stdin (one a line) that start with $1.
_ssdbench_reply() {
    local w
    while IFS= read -r w; do
        [[ -n $w && $w == "$1"* ]] && COMPREPLY+=("$w")
    done
    return 0
}

# Files (and directories) that start with $1; the shell then quotes them and adds a slash to a directory.
_ssdbench_files() {
    compopt -o filenames 2>/dev/null
    _ssdbench_reply "$1" < <(compgen -f -- "$1")
}

_ssdbench_profiles() {
    _ssdbench_reply "$2" < <("$1" profiles list 2>/dev/null | awk '{ print $1 }')
}

_ssdbench() {
    local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} prev='' cmd='' args='' opts w v i literal
    local -i at=0 npos=0
    local -a words
    COMPREPLY=()
    command -v -- "$bin" >/dev/null 2>&1 || bin=ssdbench
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    # "--output=DIR": bash splits at '=' (COMP_WORDBREAKS).
    if [[ $cur == = ]]; then
        cur=
    elif [[ $prev == = ]] && ((COMP_CWORD > 1)); then
        prev=${COMP_WORDS[COMP_CWORD - 2]}
    fi

    # The command is the first word that is not an option.
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} != -* ]]; then
            cmd=${COMP_WORDS[i]} at=$i
            break
        fi
    done
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            _ssdbench_reply "$cur" < <(printf '%s\n' -h --help -V --version)
        else
            _ssdbench_reply "$cur" < <("$bin" help --commands 2>/dev/null | cut -f1)
        fi
        return 0
    fi
    args=$("$bin" help --commands 2>/dev/null | awk -F '\t' -v c="$cmd" '$1 == c { print $2 }')
    opts=$(_ssdbench_options "$bin" "$cmd")

    # The value of an option: v is its placeholder and a dot ("." alone: a flag; empty: no such option).
    v=
    if [[ $prev == -* ]]; then
        v=$(awk -F '\t' -v o="$prev" '$1 == o { print $2 "."; exit }' <<<"$opts")
    fi
    if [[ -n $v && $v != . ]]; then
        v=${v%.}
        if [[ $prev == --profile ]]; then
            _ssdbench_profiles "$bin" "$cur"
            _ssdbench_files "$cur"
        elif [[ $prev == --set ]]; then
            compopt -o nospace 2>/dev/null
            _ssdbench_reply "$cur" < <(_ssdbench_options "$bin" run |
                awk -F '\t' '$2 == "VALUE" { s = substr($1, 3); gsub(/-/, "_", s); print s "=" }')
        elif [[ $v =~ FILE|DIR|PATH ]]; then
            _ssdbench_files "$cur"
        elif [[ $v =~ ^[a-z|]+$ ]]; then
            _ssdbench_reply "$cur" < <(tr '|' '\n' <<<"$v")
        fi
        return 0
    fi
    if [[ $cur == -* ]]; then
        _ssdbench_reply "$cur" < <( (cut -f1 <<<"$opts"; if [[ $cmd == help ]]; then echo --commands; else echo --help; fi) |
            awk '!seen[$0]++')
        return 0
    fi

    # Words of the command's line: its words (list, show) until one is given, then its placeholders.
    for ((i = at + 1; i < COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if [[ $w == -* ]]; then
            v=$(awk -F '\t' -v o="$w" '$1 == o && $2 != "" { print "v"; exit }' <<<"$opts")
            [[ -n $v ]] && ((i++))
        elif [[ $w != = ]]; then
            ((npos++))
        fi
    done
    args=${args//[\[\]]/ }
    literal='(^|[ |])[a-z]+([ |]|$)'
    if ((npos == 0)) && [[ $args =~ $literal ]]; then
        read -ra words <<<"${args//|/ }"
        _ssdbench_reply "$cur" < <(printf '%s\n' "${words[@]}" | grep -E '^[a-z]+$')
    elif [[ $args == *COMMAND* ]]; then
        _ssdbench_reply "$cur" < <("$bin" help --commands 2>/dev/null | cut -f1)
    elif [[ $args == *NAME* ]]; then
        _ssdbench_profiles "$bin" "$cur"
    elif [[ $args == *TARGET* && $cur == /dev/* && $cur != /dev/*/* ]]; then
        # Devices rather than every file of /dev; its directories lead to /dev/disk/by-id/... and such.
        compopt -o filenames 2>/dev/null
        _ssdbench_reply "$cur" < <(_ssdbench_devices; compgen -d -- "$cur")
    elif [[ $args == *TARGET* ]]; then
        [[ $cur == */* ]] || _ssdbench_reply "$cur" < <(_ssdbench_devices)
        _ssdbench_files "$cur"
    else
        _ssdbench_files "$cur"
    fi
    return 0
}

complete -F _ssdbench ssdbench
