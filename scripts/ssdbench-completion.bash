# SPDX-License-Identifier: MIT
# shellcheck shell=bash
#
# Bash completion for ssdbench from a checkout: loads what the binary prints (`ssdbench completion bash`,
# made from its table of every command's options), so that it always matches the binary. Source it:
#
#     . scripts/ssdbench-completion.bash
#
# It asks `ssdbench` on PATH, else the one built beside this script (./ssdbench). `make install` installs
# the printed script itself (and zsh's and fish's, `ssdbench completion zsh|fish`).
_ssdbench_loader_bin=ssdbench
if ! command -v ssdbench >/dev/null 2>&1; then
    _ssdbench_loader_bin=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/ssdbench
fi
# shellcheck source=/dev/null
. <("$_ssdbench_loader_bin" completion bash)
unset _ssdbench_loader_bin
