// SPDX-License-Identifier: MIT
/*
 * `ssdbench completion bash|zsh|fish`: the shells' completion scripts, made from the option table
 * (cliopts.c), the command table (cli.c) and the job parameters with their values (job.c).
 * `--list` prints the table itself, a tab-separated line per option and per job parameter.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cliopts.h"
#include "clitab.h"
#include "job.h"

/* Values as one space-separated word list (they hold no space nor quote: test_cliopts checks). */
static void put_values(FILE *f, const char *sep, const char *const *v)
{
	for (size_t i = 0; v && v[i]; i++)
		fprintf(f, "%s%s", i ? " " : sep, v[i]);
}

/* Each job parameter as PRE NAME MID VALUES POST: its closed list of values space-separated after MID. */
static void put_params(FILE *f, const char *pre, const char *mid, const char *post)
{
	for (size_t i = 0; i < job_param_count(); i++) {
		const char *name, *dflt;

		job_param_help(i, &name, &dflt);
		fprintf(f, "%s%s%s", pre, name, job_param_values(i) ? mid : "");
		put_values(f, "", job_param_values(i));
		fputs(post, f);
	}
}

/*
 * The devices a target may be, as globs under /dev: block devices, then (after NULL) the NVMe generic
 * character devices of io_uring_cmd. Each shell's script lists them from here.
 */
static const char *const device_globs[] = {
	"nvme*n*", "sd*", "vd*", "xvd*", "hd*", "mmcblk*", "pmem*", "nbd*", "dm-*", "md*", "mapper/*", "zram*",
	"loop*", NULL, "ng*n*", NULL,
};

/* The globs as " /dev/GLOB" followed by post: block devices (chr false) or character devices. */
static void put_devices(FILE *f, bool chr, const char *post)
{
	const char *const *g = device_globs;

	if (chr)
		while (*g++)
			;
	for (; *g; g++)
		fprintf(f, " /dev/%s%s", *g, post);
}

/* A job parameter's name with dashes, as an option of run. */
static const char *dashed(const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s", name);
	for (char *c = buf; *c; c++)
		*c = *c == '_' ? '-' : *c;
	return buf;
}

/* Job parameter i as an option of run: CV_ENUM where it has a closed list, else CV_TEXT. */
static struct cli_opt param_opt(size_t i, char *buf, size_t len)
{
	const char *name, *dflt, *help = job_param_help(i, &name, &dflt);
	const char *const *values = job_param_values(i);

	return (struct cli_opt){ dashed(name, buf, len), 0, OPT_PARAM, "VALUE", values ? CV_ENUM : CV_TEXT,
				 values, *dflt ? dflt : NULL, help };
}

/* Calls fn for every option of command s (run: the job parameters first, as help shows them). */
static void each_option(const struct cli_optset *s, void (*fn)(FILE *f, const char *cmd, const struct cli_opt *o),
			FILE *f)
{
	char buf[64];

	for (size_t i = 0; s->job_params && i < job_param_count(); i++) {
		struct cli_opt o = param_opt(i, buf, sizeof(buf));

		fn(f, s->cmd, &o);
	}
	for (size_t i = 0; i < s->nopts; i++) {
		struct cli_opt o = s->opts[i];

		/* A table's columns complete from the table the command prints (clitab.c). */
		if ((o.id == OPT_FIELDS || o.id == OPT_FIELDS_O) && cli_table_names(s->cmd)) {
			o.kind = CV_LIST;
			o.values = cli_table_names(s->cmd);
		}
		fn(f, s->cmd, &o);
	}
}

/* --list: "option<TAB>CMD<TAB>--LONG<TAB>-S<TAB>KIND<TAB>VALUES" and "param<TAB>NAME<TAB>VALUES". */
static void list_option(FILE *f, const char *cmd, const struct cli_opt *o)
{
	fprintf(f, "option\t%s\t--%s\t", cmd, o->name);
	if (o->short_name)
		fprintf(f, "-%c", o->short_name);
	fprintf(f, "\t%s\t", cli_value_kind_name(o->kind));
	put_values(f, "", o->values);
	fputc('\n', f);
}

static void print_list(FILE *f)
{
	const struct cli_optset *s;

	for (size_t k = 0; (s = cli_optset_at(k)); k++)
		each_option(s, list_option, f);
	put_params(f, "param\t", "\t", "\n");
}

/* ---- bash ---- */

static void bash_option(FILE *f, const char *cmd, const struct cli_opt *o)
{
	(void)cmd;
	if (o->short_name) {
		fprintf(f, "        '-%c %s", o->short_name, cli_value_kind_name(o->kind));
		put_values(f, " ", o->values);
		fputs("' \\\n", f);
	}
	fprintf(f, "        '--%s %s", o->name, cli_value_kind_name(o->kind));
	put_values(f, " ", o->values);
	fputs("' \\\n", f);
}

static const char bash_head[] =
	"# shellcheck shell=bash\n"
	"# ssdbench completion for bash, made by `ssdbench completion bash` from the binary's option table.\n"
	"# Load it with: source <(ssdbench completion bash)\n"
	"\n";

/* The logic; the data above it (_ssdbench_commands, _ssdbench_args, _ssdbench_options, _ssdbench_params). */
static const char bash_body[] =
	"# COMPREPLY from the words on stdin (one a line), each after PRE ($3), that start with CUR ($1),\n"
	"# less their first STRIP ($2) characters: what bash put in words of their own at '='.\n"
	"_ssdbench_reply() {\n"
	"    local w\n"
	"    while IFS= read -r w; do\n"
	"        w=${3-}$w\n"
	"        [[ -n $w && $w == \"$1\"* ]] && COMPREPLY+=(\"${w:${2:-0}}\")\n"
	"    done\n"
	"    return 0\n"
	"}\n"
	"\n"
	"# Candidates for TEXT ($3), the value of an option of KIND ($2) with VALUES (the rest).\n"
	"_ssdbench_values() {\n"
	"    local bin=$1 kind=$2 text=$3 v name\n"
	"    shift 3\n"
	"    case $kind in\n"
	"    enum) printf '%s\\n' \"$@\" ;;\n"
	"    dim) { printf '%s\\n' \"$@\"; _ssdbench_params | cut -d ' ' -f 1; } | awk '!seen[$0]++' ;;\n"
	"    list) name=; [[ $text == *,* ]] && name=${text%,*},\n"
	"        for v in \"$@\"; do printf '%s%s\\n' \"$name\" \"$v\"; done ;;\n"
	"    profile) \"$bin\" profiles list 2>/dev/null | awk '{ print $1 }'; compgen -f -- \"$text\" ;;\n"
	"    file) compgen -f -- \"$text\" ;;\n"
	"    dir) compgen -d -- \"$text\" ;;\n"
	"    param)\n"
	"        if [[ $text == *=* ]]; then\n"
	"            name=${text%%=*}\n"
	"            _ssdbench_params | awk -v n=\"${name//-/_}\" -v p=\"$name=\" \\\n"
	"                '$1 == n { for (i = 2; i <= NF; i++) print p $i }'\n"
	"        else\n"
	"            _ssdbench_params | awk '{ print $1 \"=\" }'\n"
	"        fi ;;\n"
	"    esac\n"
	"}\n"
	"\n"
	"_ssdbench() {\n"
	"    local bin=${COMP_WORDS[0]} ocur=${COMP_WORDS[COMP_CWORD]} cur prev='' cmd='' args opts spec\n"
	"    local opt text pre kind w literal glue=0\n"
	"    local -i at=0 npos=0 strip i n\n"
	"    local -a words=() vals\n"
	"    COMPREPLY=()\n"
	"    command -v -- \"$bin\" >/dev/null 2>&1 || bin=ssdbench\n"
	"    # Bash splits words at '=' (COMP_WORDBREAKS): \"--set\" \"rw\" \"=\" \"rand\" is \"--set\" \"rw=rand\" here,\n"
	"    # and a reply leaves out what comes before the word bash replaces.\n"
	"    for ((i = 0; i <= COMP_CWORD; i++)); do\n"
	"        w=${COMP_WORDS[i]}\n"
	"        if [[ $w == = ]] && ((i > 1)); then\n"
	"            words[${#words[@]} - 1]+==; glue=1\n"
	"        elif ((glue)); then\n"
	"            words[${#words[@]} - 1]+=$w; glue=0\n"
	"        else\n"
	"            words+=(\"$w\")\n"
	"        fi\n"
	"    done\n"
	"    [[ $ocur == = ]] && ocur=\n"
	"    n=${#words[@]}\n"
	"    cur=${words[n - 1]}\n"
	"    ((n > 1)) && prev=${words[n - 2]}\n"
	"    strip=$((${#cur} - ${#ocur}))\n"
	"\n"
	"    # The command is the first word that is not an option.\n"
	"    for ((i = 1; i < n - 1; i++)); do\n"
	"        if [[ ${words[i]} != -* ]]; then\n"
	"            cmd=${words[i]} at=$i\n"
	"            break\n"
	"        fi\n"
	"    done\n"
	"    if [[ -z $cmd ]]; then\n"
	"        if [[ $cur == -* ]]; then\n"
	"            _ssdbench_reply \"$cur\" \"$strip\" < <(printf '%s\\n' -h --help -V --version)\n"
	"        else\n"
	"            _ssdbench_reply \"$cur\" \"$strip\" < <(printf '%s\\n' $_ssdbench_commands)\n"
	"        fi\n"
	"        return 0\n"
	"    fi\n"
	"    opts=$(_ssdbench_options \"$cmd\")\n"
	"\n"
	"    # The value of an option: \"--opt VALUE\" or \"--opt=VALUE\".\n"
	"    spec= pre=\n"
	"    if [[ $cur == --*=* ]]; then\n"
	"        opt=${cur%%=*} text=${cur#*=} pre=$opt=\n"
	"    elif [[ $prev == -* && $prev != *=* ]]; then\n"
	"        opt=$prev text=$cur\n"
	"    else\n"
	"        opt=\n"
	"    fi\n"
	"    [[ -n $opt ]] && spec=$(awk -v o=\"$opt\" '$1 == o { print; exit }' <<<\"$opts\")\n"
	"    read -r _ kind vals <<<\"$spec\"\n"
	"    if [[ -n $spec && $kind != flag ]]; then\n"
	"        read -ra vals <<<\"$vals\"\n"
	"        case $kind in\n"
	"        file | dir | profile) compopt -o filenames 2>/dev/null ;;\n"
	"        param) [[ $text == *=* ]] || compopt -o nospace 2>/dev/null ;;\n"
	"        esac\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" \"$pre\" < <(_ssdbench_values \"$bin\" \"$kind\" \"$text\" \"${vals[@]}\")\n"
	"        return 0\n"
	"    fi\n"
	"    if [[ $cur == -* ]]; then\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" < <( (cut -d ' ' -f 1 <<<\"$opts\"; [[ $cmd == help ]] || echo --help) |\n"
	"            awk 'NF && !seen[$0]++')\n"
	"        return 0\n"
	"    fi\n"
	"\n"
	"    # Words of the command's line: its words (list, show) until one is given, then its placeholders.\n"
	"    for ((i = at + 1; i < n - 1; i++)); do\n"
	"        w=${words[i]}\n"
	"        if [[ $w == -* ]]; then\n"
	"            [[ $w == *=* ]] && continue\n"
	"            kind=$(awk -v o=\"$w\" '$1 == o { print $2; exit }' <<<\"$opts\")\n"
	"            [[ -n $kind && $kind != flag ]] && ((i++))\n"
	"        else\n"
	"            ((npos++))\n"
	"        fi\n"
	"    done\n"
	"    args=$(_ssdbench_args \"$cmd\")\n"
	"    args=${args//[\\[\\]]/ }\n"
	"    literal='(^|[ |])[a-z]+([ |]|$)'\n"
	"    if ((npos == 0)) && [[ $args =~ $literal ]]; then\n"
	"        read -ra vals <<<\"${args//|/ }\"\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" < <(printf '%s\\n' \"${vals[@]}\" | grep -E '^[a-z]+$')\n"
	"    elif [[ $args == *COMMAND* ]]; then\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" < <(printf '%s\\n' $_ssdbench_commands)\n"
	"    elif [[ $args == *NAME* ]]; then\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" < <(\"$bin\" profiles list 2>/dev/null | awk '{ print $1 }')\n"
	"    elif [[ $args == *TARGET* && $cur == /dev/* && $cur != /dev/*/* ]]; then\n"
	"        # Devices rather than every file of /dev; its directories lead to /dev/disk/by-id/... and such.\n"
	"        compopt -o filenames 2>/dev/null\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" < <(_ssdbench_devices; compgen -d -- \"$cur\")\n"
	"    elif [[ $args == *TARGET* ]]; then\n"
	"        compopt -o filenames 2>/dev/null\n"
	"        [[ $cur == */* ]] || _ssdbench_reply \"$cur\" \"$strip\" < <(_ssdbench_devices)\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" < <(compgen -f -- \"$cur\")\n"
	"    else\n"
	"        compopt -o filenames 2>/dev/null\n"
	"        _ssdbench_reply \"$cur\" \"$strip\" < <(compgen -f -- \"$cur\")\n"
	"    fi\n"
	"    return 0\n"
	"}\n"
	"\n"
	"complete -F _ssdbench ssdbench\n";

static void print_bash(FILE *f)
{
	const char *name, *args, *summary;
	const struct cli_optset *s;

	fputs(bash_head, f);
	fputs("_ssdbench_commands='", f);
	for (size_t i = 0; (name = cli_command_at(i, &args, &summary)); i++)
		fprintf(f, "%s%s", i ? " " : "", name);
	fputs("'\n\n# The arguments of command $1, as `ssdbench --help` shows them.\n", f);
	fputs("_ssdbench_args() {\n    case $1 in\n", f);
	for (size_t i = 0; (name = cli_command_at(i, &args, &summary)); i++)
		fprintf(f, "    %s) echo '%s' ;;\n", name, args);
	fputs("    esac\n}\n\n# The options of command $1, one \"OPTION KIND VALUES...\" a line.\n"
	      "_ssdbench_options() {\n    case $1 in\n", f);
	for (size_t k = 0; (s = cli_optset_at(k)); k++) {
		fprintf(f, "    %s) printf '%%s\\n' \\\n", s->cmd);
		each_option(s, bash_option, f);
		fputs("        ;;\n", f);
	}
	fputs("    help) echo '--commands flag' ;;\n    esac\n}\n\n"
	      "# The job parameters (--set NAME=VALUE), one \"NAME VALUES...\" a line.\n"
	      "_ssdbench_params() {\n    printf '%s\\n' \\\n", f);
	put_params(f, "        '", " ", "' \\\n");
	fputs("        ;\n}\n\n", f);
	fputs("# Block devices that may be targets, and the NVMe generic character devices (io_uring_cmd).\n"
	      "_ssdbench_devices() {\n    local d\n    for d in", f);
	put_devices(f, false, "");
	fputs("; do\n        [[ -b $d ]] && printf '%s\\n' \"$d\"\n    done\n    for d in", f);
	put_devices(f, true, "");
	fputs("; do\n        [[ -c $d ]] && printf '%s\\n' \"$d\"\n    done\n    return 0\n}\n\n", f);
	fputs(bash_body, f);
}

/* ---- zsh and fish: descriptions are the help's first line, quoted for '...' ---- */

/* The first line of help, with ' and the characters given escaped by a backslash (zsh's [ ] :). */
static void put_summary(FILE *f, const char *help, const char *esc, bool fish)
{
	for (const char *c = help; *c && *c != '\n'; c++) {
		if (*c == '\'')
			fputs(fish ? "\\'" : "'\\''", f);
		else if (strchr(esc, *c))
			fprintf(f, "\\%c", *c);
		else
			fputc(*c, f);
	}
}

static void zsh_action(FILE *f, const struct cli_opt *o)
{
	switch (o->kind) {
	case CV_FLAG: return;
	case CV_FILE: fputs(":file:_files", f); return;
	case CV_DIR: fputs(":directory:_files -/", f); return;
	case CV_PROFILE: fputs(":profile:_ssdbench_profile", f); return;
	case CV_PARAM: fputs(":parameter:_ssdbench_param", f); return;
	case CV_ENUM: fputs(":value:(", f); put_values(f, "", o->values); fputs(")", f); return;
	case CV_LIST: fputs(":values:_ssdbench_list", f); put_values(f, " ", o->values); return;
	case CV_DIM: fputs(":dimension:_ssdbench_dim", f); put_values(f, " ", o->values); return;
	default: fprintf(f, ":%s: ", o->arg ? o->arg : "value"); return;
	}
}

static void zsh_option(FILE *f, const char *cmd, const struct cli_opt *o)
{
	(void)cmd;
	fputs("        '*", f);
	if (o->short_name)
		fprintf(f, "-%c%s", o->short_name, o->arg ? "+" : "");
	else
		fprintf(f, "--%s%s", o->name, o->arg ? "=" : "");
	fputc('[', f);
	put_summary(f, o->help, "[]:\\", false);
	fputc(']', f);
	zsh_action(f, o);
	fputs("' \\\n", f);
	if (o->short_name) {
		struct cli_opt l = *o;

		l.short_name = 0;
		zsh_option(f, cmd, &l);
	}
}

/* The positional arguments of a command, from its ARGS as --help shows them. */
static void zsh_args(FILE *f, const char *args)
{
	const char *name, *a, *sum;

	if (strstr(args, "TARGET")) {
		fputs("        '*:target:_ssdbench_target'", f);
	} else if (strstr(args, "COMMAND")) {
		fputs("        '1:command:(", f);
		for (size_t i = 0; (name = cli_command_at(i, &a, &sum)); i++)
			fprintf(f, "%s%s", i ? " " : "", name);
		fputs(")'", f);
	} else if (strstr(args, "list|show")) {
		fputs("        '1:subcommand:(list show)' '2:profile:_ssdbench_profile'", f);
	} else if (strstr(args, "bash|zsh|fish")) {
		fputs("        '1:shell:(bash zsh fish)'", f);
	} else {
		fputs("        '*:file:_files'", f);
	}
	fputc('\n', f);
}

static const char zsh_body[] =
	"# --set NAME=VALUE: the names, then the values of the one named.\n"
	"_ssdbench_param() {\n"
	"    local -a vals\n"
	"    local p n\n"
	"    if compset -P '*='; then\n"
	"        n=${${IPREFIX%=}//-/_}\n"
	"        for p in $_ssdbench_params; do\n"
	"            [[ $p == $n:* ]] && vals=(${=p#*:})\n"
	"        done\n"
	"        compadd -a vals\n"
	"    else\n"
	"        vals=(${_ssdbench_params%%:*})\n"
	"        compadd -S '=' -a vals\n"
	"    fi\n"
	"}\n"
	"\n"
	"# A comma list of the values given.\n"
	"_ssdbench_list() {\n"
	"    compset -P '*,'\n"
	"    compadd -S '' -- \"$@\"\n"
	"}\n"
	"\n"
	"# One of the values given, or a job parameter's name.\n"
	"_ssdbench_dim() {\n"
	"    local -aU all=(\"$@\" ${_ssdbench_params%%:*})\n"
	"    compadd -a all\n"
	"}\n"
	"\n"
	"_ssdbench_profile() {\n"
	"    local -a p=(${(f)\"$(_call_program profiles ssdbench profiles list 2>/dev/null)\"})\n"
	"    compadd -- ${p%% *}\n"
	"    _files\n"
	"}\n"
	"\n";

static void print_zsh(FILE *f)
{
	const char *name, *args, *summary;
	const struct cli_optset *s;

	fputs("#compdef ssdbench\n"
	      "# ssdbench completion for zsh, made by `ssdbench completion zsh` from the binary's option table.\n"
	      "# Install it as _ssdbench in a directory of $fpath.\n\n"
	      "# The job parameters, \"NAME\" or \"NAME:VALUES\".\n_ssdbench_params=(\n", f);
	put_params(f, "    '", ":", "'\n");
	fputs(")\n\n", f);
	fputs(zsh_body, f);
	fputs("_ssdbench_target() {\n    local -a d=(", f);
	put_devices(f, false, "(N%b)");
	put_devices(f, true, "(N%c)");
	fputs(")\n    compadd -a d\n    _files\n}\n\n", f);
	fputs("_ssdbench() {\n    local -a cmds=(\n", f);
	for (size_t i = 0; (name = cli_command_at(i, &args, &summary)); i++) {
		fprintf(f, "        '%s:", name);
		put_summary(f, summary, ":\\", false);
		fputs("'\n", f);
	}
	fputs("    )\n"
	      "    if ((CURRENT == 2)); then\n"
	      "        if [[ $PREFIX == -* ]]; then\n"
	      "            compadd -- -h --help -V --version\n"
	      "        else\n"
	      "            _describe -t commands command cmds\n"
	      "        fi\n"
	      "        return\n"
	      "    fi\n"
	      "    local cmd=$words[2]\n"
	      "    shift words\n"
	      "    ((CURRENT--))\n"
	      "    curcontext=\"${curcontext%:*:*}:ssdbench-$cmd:\"\n"
	      "    case $cmd in\n", f);
	for (size_t i = 0; (name = cli_command_at(i, &args, &summary)); i++) {
		fprintf(f, "    %s)\n        _arguments -s -S \\\n", name);
		if ((s = cli_optset(name)))
			each_option(s, zsh_option, f);
		else if (!strcmp(name, "help"))
			fputs("        '--commands[list the commands for scripts]' \\\n", f);
		zsh_args(f, args);
		fputs("        ;;\n", f);
	}
	fputs("    esac\n}\n\n_ssdbench \"$@\"\n", f);
}

static void fish_option(FILE *f, const char *cmd, const struct cli_opt *o)
{
	fprintf(f, "complete -c ssdbench -n '__fish_seen_subcommand_from %s'", cmd);
	if (o->short_name)
		fprintf(f, " -s %c", o->short_name);
	fprintf(f, " -l %s", o->name);
	switch (o->kind) {
	case CV_FLAG: break;
	case CV_FILE: fputs(" -r -F", f); break;
	case CV_DIR: fputs(" -x -a '(__fish_complete_directories)'", f); break;
	case CV_PROFILE: fputs(" -r -F -a '(__ssdbench_profiles)'", f); break;
	case CV_PARAM: fputs(" -x -a '(__ssdbench_param)'", f); break;
	case CV_ENUM: fputs(" -x -a '", f); put_values(f, "", o->values); fputs("'", f); break;
	case CV_LIST: fputs(" -x -a '(__ssdbench_list", f); put_values(f, " ", o->values); fputs(")'", f); break;
	case CV_DIM: fputs(" -x -a '", f); put_values(f, "", o->values); fputs(" (__ssdbench_param_names)'", f); break;
	default: fputs(" -x", f); break;
	}
	fputs(" -d '", f);
	put_summary(f, o->help, "", true);
	fputs("'\n", f);
}

static const char fish_body[] =
	"function __ssdbench_param_names\n"
	"    for p in $__ssdbench_params\n"
	"        string split -m 1 ' ' -- $p | head -n 1\n"
	"    end\n"
	"end\n"
	"\n"
	"# --set NAME=VALUE: the names, then the values of the one named.\n"
	"function __ssdbench_param\n"
	"    set -l tok (commandline -ct)\n"
	"    if string match -q -- '*=*' $tok\n"
	"        set -l name (string split -m 1 = -- $tok)[1]\n"
	"        set -l key (string replace -a -- - _ $name)\n"
	"        for p in $__ssdbench_params\n"
	"            set -l w (string split ' ' -- $p)\n"
	"            if test \"$w[1]\" = \"$key\"\n"
	"                for v in $w[2..-1]\n"
	"                    echo \"$name=$v\"\n"
	"                end\n"
	"            end\n"
	"        end\n"
	"    else\n"
	"        for n in (__ssdbench_param_names)\n"
	"            echo \"$n=\"\n"
	"        end\n"
	"    end\n"
	"end\n"
	"\n"
	"# A comma list of the values given.\n"
	"function __ssdbench_list\n"
	"    set -l tok (commandline -ct)\n"
	"    set -l head ''\n"
	"    string match -q -- '*,*' $tok; and set head (string replace -r -- '[^,]*$' '' $tok)\n"
	"    for v in $argv\n"
	"        echo \"$head$v\"\n"
	"    end\n"
	"end\n"
	"\n"
	"function __ssdbench_profiles\n"
	"    ssdbench profiles list 2>/dev/null | string replace -r -- ' .*' ''\n"
	"end\n"
	"\n";

static void print_fish(FILE *f)
{
	const char *name, *args, *summary;
	const struct cli_optset *s;

	fputs("# ssdbench completion for fish, made by `ssdbench completion fish` from the binary's option table.\n"
	      "# Load it with: ssdbench completion fish | source\n\n"
	      "# The job parameters, \"NAME VALUES...\".\nset -g __ssdbench_params", f);
	put_params(f, " \\\n    '", " ", "'");
	fputs("\nset -g __ssdbench_commands", f);
	for (size_t i = 0; (name = cli_command_at(i, &args, &summary)); i++)
		fprintf(f, " %s", name);
	fputs("\n\n", f);
	fputs(fish_body, f);
	fputs("function __ssdbench_devices\n    for d in", f);
	put_devices(f, false, "");
	fputs("\n        test -b $d; and echo $d\n    end\n    for d in", f);
	put_devices(f, true, "");
	fputs("\n        test -c $d; and echo $d\n    end\nend\n\n", f);
	fputs("complete -c ssdbench -f\n"
	      "complete -c ssdbench -n 'not __fish_seen_subcommand_from $__ssdbench_commands' -s h -l help -d 'this help'\n"
	      "complete -c ssdbench -n 'not __fish_seen_subcommand_from $__ssdbench_commands' -s V -l version"
	      " -d 'version and git revision'\n", f);
	for (size_t i = 0; (name = cli_command_at(i, &args, &summary)); i++) {
		fprintf(f, "complete -c ssdbench -n 'not __fish_seen_subcommand_from $__ssdbench_commands' -a %s -d '",
			name);
		put_summary(f, summary, "", true);
		fputs("'\n", f);
		if ((s = cli_optset(name)))
			each_option(s, fish_option, f);
		fprintf(f, "complete -c ssdbench -n '__fish_seen_subcommand_from %s'", name);
		if (strstr(args, "TARGET"))
			fputs(" -F -a '(__ssdbench_devices)'\n", f);
		else if (strstr(args, "COMMAND"))
			fputs(" -l commands -d 'list the commands for scripts' -a '$__ssdbench_commands'\n", f);
		else if (strstr(args, "list|show"))
			fputs(" -a 'list show (__ssdbench_profiles)'\n", f);
		else if (strstr(args, "bash|zsh|fish"))
			fputs(" -a 'bash zsh fish'\n", f);
		else
			fputs(" -F\n", f);
	}
}

int cmd_completion(int argc, char **argv)
{
	static const struct {
		const char *shell;
		void (*print)(FILE *f);
	} shells[] = { { "bash", print_bash }, { "zsh", print_zsh }, { "fish", print_fish } };
	const struct cli_optset *s = cli_optset("completion");
	bool list = false;
	int ch;

	optind = 1;
	while ((ch = cli_getopt(s, argc, argv)) != -1) {
		if (ch != OPT_LIST)
			return cli_option_error(ch, argv, "completion");
		list = true;
	}
	if (list && optind == argc) {
		print_list(stdout);
		return EXIT_OK;
	}
	if (!list && argc - optind == 1)
		for (size_t i = 0; i < sizeof(shells) / sizeof(shells[0]); i++)
			if (!strcmp(argv[optind], shells[i].shell)) {
				shells[i].print(stdout);
				return EXIT_OK;
			}
	cli_error("completion: expected bash, zsh or fish, or --list (see ssdbench help completion)");
	return EXIT_USAGE;
}
