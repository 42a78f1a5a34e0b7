#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The layer rule of docs/architecture.md, checked over the #include lines of src/ and include/:
# a file may include headers of its own layer and of the layers it names below; nothing else.
# A header belongs to the layer of the .c (or .cc) file of the same name (src/LAYER/NAME.c), or to the one
# the table `header_layer` gives for a header with no .c of its own. Prints every violation as
# "FILE: includes HEADER (LAYER), which LAYER may not" and exits 1 if there is any.
#
#   scripts/check-layers.sh            the whole tree
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# Which layers each layer may include (its own first). The order is the architecture, bottom up.
declare -A may=(
    [lib]="lib"
    [model]="model lib"
    [stats]="stats lib"
    [target]="target model stats lib"
    [io]="io target model stats lib"
    [results]="results target model stats lib"
    [report]="report results model stats lib"
    [cli]="cli report results io target model stats lib"
    # ssdbench-mpi's main (src/mpi/, built only by `make mpi`): the one place that includes mpi.h.
    [mpi]="mpi cli report results io target model stats lib"
)
# Headers with no .c file of the same name, and the layer they belong to.
declare -A header_layer=(
    [runstats.h]=stats
    [syscall_inline.h]=io
    # io_uring's private plumbing (src/io/engines/), shared by engine_uring.c and engine_uring_cmd.c alone.
    [uring_internal.h]=io
    # The trace readers' private plumbing (src/model/trace*.c).
    [trace_internal.h]=model
)
# Headers a layer may not include although the layer rule allows them, with the reason.
declare -A banned=(
    [report:profile.h]="report writers format what the aggregation was given; they load no profile"
)

declare -A layer_of
while IFS= read -r c; do
    l=${c#src/}
    l=${l%%/*}
    c=${c%.cc}
    layer_of[$(basename "${c%.c}").h]=$l
done < <(find src -name '*.c' -o -name '*.cc')
for h in "${!header_layer[@]}"; do
    layer_of[$h]=${header_layer[$h]}
done

bad=0
check() { # check FILE LAYER
    local file=$1 layer=$2 inc hl
    while IFS= read -r inc; do
        hl=${layer_of[$inc]:-}
        if [[ -z $hl ]]; then
            echo "$file: includes \"$inc\", which belongs to no layer (no src/*/${inc%.h}.c, not in header_layer)"
            bad=1
        elif [[ " ${may[$layer]} " != *" $hl "* ]]; then
            echo "$file: includes $inc ($hl), which $layer may not (it may include: ${may[$layer]})"
            bad=1
        elif [[ -n ${banned[$layer:$inc]:-} ]]; then
            echo "$file: includes $inc: ${banned[$layer:$inc]}"
            bad=1
        fi
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
}

while IFS= read -r f; do
    l=${f#src/}
    l=${l%%/*}
    [[ -n ${may[$l]:-} ]] || { echo "$f: in no known layer (src/$l/)"; bad=1; continue; }
    check "$f" "$l"
done < <(find src -name '*.c' -o -name '*.cc' | sort)
while IFS= read -r f; do
    h=$(basename "$f")
    l=${layer_of[$h]:-}
    [[ -n $l ]] || { echo "$f: belongs to no layer (no src/*/${h%.h}.c, not in header_layer)"; bad=1; continue; }
    check "$f" "$l"
done < <(find include -name '*.h' | sort)
# A private header in src/ (such as src/io/engines/uring_internal.h) keeps the rule of its folder's layer.
while IFS= read -r f; do
    l=${f#src/}
    l=${l%%/*}
    check "$f" "$l"
done < <(find src -name '*.h' | sort)

# An engine sees the narrow struct engine_ctx of engine.h, never the whole worker.
while IFS= read -r f; do
    if grep -q '^#include "worker.h"' "$f"; then
        echo "$f: includes worker.h: an engine sees struct engine_ctx (engine.h), not the worker"
        bad=1
    fi
done < <(find src/io/engines -name '*.c' | sort)

if ((bad)); then
    echo "check-layers: the layer rule of docs/architecture.md is broken (see above)"
    exit 1
fi
echo "check-layers: $(find src -name '*.c' -o -name '*.cc' | wc -l) sources and $(find include -name '*.h' | wc -l) headers keep the layer rule"
