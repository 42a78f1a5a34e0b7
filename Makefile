# SPDX-License-Identifier: MIT
# ssdbench: a plain Makefile. `make` builds ./ssdbench, `make check` runs every test,
# `make sanitize` runs them under ASan and UBSan, `make run` runs the demo, `make check-vm` runs the
# tests through real drivers in a VM. V=1 shows commands.

CC      ?= cc
CXX     ?= c++
PKGS    := liburing jansson blkid smartcols libisal libnvme simdjson sqlite3 libpq libmicrohttpd
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
# The git revision: of the checkout; else the one `git archive` wrote into .git-revision (export-subst
# in .gitattributes); else "unknown" (a tree copied without .git), which --version says.
GITREV  := $(shell [ -e .git ] && git rev-parse --short=12 HEAD 2>/dev/null || \
             sed -n 's/^\([0-9a-f]\{12\}\).*/\1/p' .git-revision 2>/dev/null)
GITREV  := $(or $(GITREV),unknown)

OPT      ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla \
            -Wcast-qual -Wno-format-nonliteral
CPPFLAGS += -Iinclude -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
            -DSSDBENCH_VERSION='"$(VERSION)"' -DSSDBENCH_GITREV='"$(GITREV)"' \
            -DSSDBENCH_SHARE='"$(PREFIX)/share/ssdbench"'
# libpq's header is in a directory of its own (/usr/include/postgresql).
CPPFLAGS += $(shell pkg-config --cflags-only-I libpq 2>/dev/null || echo -I/usr/include/postgresql)
# libsmartcols' header is in a directory of its own too (/usr/include/libsmartcols).
CPPFLAGS += $(shell pkg-config --cflags-only-I smartcols 2>/dev/null || echo -I/usr/include/libsmartcols)
CFLAGS   += -std=c11 $(OPT) $(WARN) -MMD -MP -pthread
# src/results/jsonfast.cc, the one C++ file (simdjson has no C interface): no exceptions, no RTTI;
# the C link adds libstdc++ for it.
CXXFLAGS += -std=c++17 $(OPT) -Wall -Wextra -Wshadow -Wcast-qual -fno-exceptions -fno-rtti -MMD -MP -pthread
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -luring -ljansson -lblkid -lsmartcols -lisal -lnvme -lsimdjson -lsqlite3 -lpq -lmicrohttpd) -laio -lm -lstdc++ -pthread
PREFIX   ?= /usr/local

ifneq ($(WERROR),0)
CFLAGS   += -Werror
CXXFLAGS += -Werror
endif
ifneq ($(SANITIZE),)
ifeq ($(SANITIZE),1)
override SANITIZE := address,undefined,float-cast-overflow
endif
CFLAGS   += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
CXXFLAGS += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS  += -fsanitize=$(SANITIZE)
BUILD   := build/san
else
BUILD   := build/rel
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

# src/mpi/ is ssdbench-mpi's alone (`make mpi`, with the MPI compiler wrapper): never in the plain build.
SRCS     := $(sort $(shell find src -name '*.c' -not -path 'src/mpi/*'))
CXXSRCS  := $(sort $(shell find src -name '*.cc'))
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(filter-out src/cli/main.c,$(SRCS))) \
            $(patsubst src/%.cc,$(BUILD)/%.o,$(CXXSRCS))
TESTS    := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
BIN      := ssdbench
ifneq ($(SANITIZE),)
BIN      := $(BUILD)/ssdbench
endif

.PHONY: all check layers unit integration test sanitize run deps clean install uninstall man completions deb bench bench-cost check-vm mpi
all: $(BIN)

$(BIN): $(BUILD)/cli/main.o $(BUILD)/libssdbench.a
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libssdbench.a: $(LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: src/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: src/%.cc
	@mkdir -p $(@D)
	@echo "  CXX     $<"
	$(Q)$(CXX) $(CPPFLAGS) $(CXXFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(BUILD)/libssdbench.a
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libssdbench.a $(LDLIBS) -lcmocka

# test_worker drives real runs on a spy around the null engine, which the wrapped lookup returns.
$(BUILD)/tests/test_worker: LDFLAGS += -Wl,--wrap=engine_get

# The version and git revision are compiled into cli/cli.o, results/result.o, report/report_html.o and
# report/report_junit.o: a stamp that changes only with them makes those objects rebuild after every
# commit, so that --version, the results' tool.git_revision and the JUnit files' ssdbench.version always
# name the revision the binary was built from. The same for PREFIX, compiled into model/profile.o
# (SSDBENCH_SHARE, where the installed profiles are) and written into the man pages: a build for
# another PREFIX rebuilds them (`make install` builds in INSTALL_BUILD, apart from the tree's).
# $(call write_stamp,TEXT): the target file holds TEXT, rewritten (so newer) only when TEXT changes.
define write_stamp
@mkdir -p $(@D)
@echo '$(1)' | cmp -s - $@ 2>/dev/null || echo '$(1)' > $@
endef
VERSION_STAMP := $(BUILD)/version.stamp
PREFIX_STAMP  := $(BUILD)/prefix.stamp
$(VERSION_STAMP): FORCE
	$(call write_stamp,$(VERSION) $(GITREV))
$(PREFIX_STAMP): FORCE
	$(call write_stamp,$(PREFIX))
$(BUILD)/cli/cli.o $(BUILD)/results/result.o $(BUILD)/report/report_html.o $(BUILD)/report/report_junit.o: $(VERSION_STAMP)
$(BUILD)/model/profile.o: $(PREFIX_STAMP)
.PHONY: FORCE
FORCE:

deps:
	@scripts/install-deps.sh

# ssdbench-mpi (docs/mpi.md): `ssdbench run` on every rank of an MPI job, built with the MPI
# implementation's compiler wrapper (MPICC, default mpicc: Open MPI's from `scripts/install-deps.sh
# --mpi`) from src/mpi/ and the same library as ssdbench. Not part of `all`: ssdbench never needs MPI.
MPICC   ?= mpicc
MPI_BIN := ssdbench-mpi
ifneq ($(SANITIZE),)
MPI_BIN := $(BUILD)/ssdbench-mpi
endif
mpi: $(MPI_BIN)

$(MPI_BIN): $(BUILD)/mpi/mpi_main.o $(BUILD)/libssdbench.a
	@echo "  LD      $@"
	$(Q)$(MPICC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/mpi/%.o: src/mpi/%.c
	@mkdir -p $(@D)
	@command -v $(MPICC) >/dev/null || { echo "make mpi: no $(MPICC); run scripts/install-deps.sh --mpi" >&2; exit 1; }
	@echo "  MPICC   $<"
	$(Q)$(MPICC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The unit tests (cmocka, one binary per module), then the integration tests against the real binary.
unit: $(TESTS)
	@failed=""; for t in $(TESTS); do echo "== $$t"; $$t || failed="$$failed $$t"; done; \
	if [ -n "$$failed" ]; then echo "unit tests failed:$$failed"; exit 1; fi

integration: $(BIN)
	@SSDBENCH=$(abspath $(BIN)) tests/integration/run-all.sh

# One test: `make test T=verify` builds and runs the unit test tests/test_verify.c; `make test T=t-76`
# (a name starting t-) runs the integration tests whose name holds it, against a fresh ./ssdbench.
# SANITIZE=1 does either under the sanitizers.
test:
	@if [ -z "$(T)" ]; then echo "make test T=NAME: a unit test (T=verify: tests/test_verify.c) or integration tests (T=t-76)" >&2; exit 2; fi
ifneq ($(filter t-%,$(T)),)
	$(Q)$(MAKE) --no-print-directory $(BIN)
	@SSDBENCH=$(abspath $(BIN)) tests/integration/run-all.sh $(T)
else
	@[ -f tests/test_$(T).c ] || { echo "make test: no unit test tests/test_$(T).c (T=NAME: one of $(patsubst tests/test_%.c,%,$(wildcard tests/test_*.c)))" >&2; exit 2; }
	$(Q)$(MAKE) --no-print-directory $(BUILD)/tests/test_$(T)
	$(BUILD)/tests/test_$(T)
endif

# The layer rule of docs/architecture.md over the #include lines.
layers:
	$(Q)scripts/check-layers.sh

check: deps
	$(Q)$(MAKE) --no-print-directory layers unit integration

sanitize:
	$(Q)$(MAKE) --no-print-directory check SANITIZE=address,undefined,float-cast-overflow

# The tests through real drivers (NVMe, device mapper ...) in a VM under QEMU (tests/vm/README.md):
# installs QEMU and the rest (install-deps.sh --vm), fetches the kernel package into a cache outside
# the tree, boots once and runs tests/vm/guest/t-*.sh there. Not part of `make check`. Where the VM
# cannot be had (no apt, no kernel package) it says "skipped" and succeeds.
check-vm:
	@scripts/install-deps.sh --vm
	$(Q)$(MAKE) --no-print-directory $(BIN)
	@rc=0; SSDBENCH=$(abspath $(BIN)) tests/vm/run-all.sh || rc=$$?; \
	if [ $$rc -eq 77 ]; then echo "check-vm: skipped (above)"; exit 0; fi; exit $$rc

# The demo: the quick profile on a scratch file under build/ (RUN_SCRATCH; 1 GiB, laid out with real
# data on the first run and reused after), results in ./results. run's closing lines on stderr say
# what it measured and where (the target, its filesystem, engine, queue depth, threads, request sizes,
# duration), from the results it wrote. `make clean` removes the scratch file.
RUN_SCRATCH ?= build/run/ssdbench.scratch
run:
	@scripts/install-deps.sh --build-only
	$(Q)$(MAKE) --no-print-directory $(BIN)
	@mkdir -p $(dir $(RUN_SCRATCH))
	./$(BIN) run --profile quick $(RUN_SCRATCH)

bench: $(BIN)
	scripts/bench-vs-fio.sh

# The cost gate (CI runs it): the hot path's instructions per I/O against tests/bench/cost-baseline.txt.
bench-cost: $(BIN)
	@scripts/install-deps.sh
	scripts/bench-cost.sh

# The man pages, generated from the binary's own help (scripts/gen-man.sh): ssdbench(1) and one page
# per command of `ssdbench help --commands`, so that a new command has its page without an edit here;
# and the formats' pages of section 5 from their documents (scripts/gen-man5.sh): ssdbench-profile(5)
# from docs/profiles.md, ssdbench-result(5) from docs/result-format.md.
MANDIR := $(BUILD)/man
man: $(MANDIR)/.stamp
$(MANDIR)/.stamp: $(BIN) scripts/gen-man.sh scripts/gen-man5.sh README.md docs/profiles.md \
		  docs/result-format.md $(PREFIX_STAMP)
	@echo "  MAN     $(MANDIR)"
	$(Q)rm -rf $(MANDIR) && scripts/gen-man.sh $(abspath $(BIN)) $(MANDIR) $(PREFIX)
	$(Q)scripts/gen-man5.sh $(abspath $(BIN)) docs/profiles.md $(MANDIR)/ssdbench-profile.5 ssdbench-profile \
		"the profile format: experiments as JSON files"
	$(Q)scripts/gen-man5.sh $(abspath $(BIN)) docs/result-format.md $(MANDIR)/ssdbench-result.5 ssdbench-result \
		"the result format: one JSON file per run"
	$(Q)touch $@

# The completions of bash, zsh and fish, printed by the binary from its option table
# (`ssdbench completion SHELL`).
COMPLGEN := $(BUILD)/completion
completions: $(COMPLGEN)/.stamp
$(COMPLGEN)/.stamp: $(BIN)
	@echo "  COMPL   $(COMPLGEN)"
	$(Q)rm -rf $(COMPLGEN) && mkdir -p $(COMPLGEN)
	$(Q)for s in bash zsh fish; do $(abspath $(BIN)) completion $$s >$(COMPLGEN)/ssdbench.$$s || exit 1; done
	$(Q)touch $@

# `make install` (PREFIX, default /usr/local, and DESTDIR): the binary, the profiles (which the
# installed binary finds in PREFIX/share/ssdbench/profiles from any directory), the JSON Schemas, the
# man pages (sections 1 and 5) and the completions of bash, zsh and fish. `make uninstall` removes what it installed.
# The installed binary embeds PREFIX, so it is built apart, in INSTALL_BUILD (objects, binary and man
# pages): `make install PREFIX=/usr` after `make` leaves ./ssdbench and $(BUILD) as they were. A
# package build that built with the same PREFIX may name its BUILD there, as debian/rules does.
SHAREDIR  = $(PREFIX)/share/ssdbench
MAN1DIR   = $(PREFIX)/share/man/man1
MAN5DIR   = $(PREFIX)/share/man/man5
COMPLDIR  = $(PREFIX)/share/bash-completion/completions
ZSHCOMPLDIR  = $(PREFIX)/share/zsh/site-functions
FISHCOMPLDIR = $(PREFIX)/share/fish/vendor_completions.d
INSTALL  ?= install
INSTALL_BUILD ?= $(BUILD)-install
install:
	$(Q)$(MAKE) --no-print-directory install-built BUILD=$(INSTALL_BUILD) BIN=$(INSTALL_BUILD)/ssdbench \
		MPI_BIN=$(MPI_BIN)

.PHONY: install-built
install-built: $(BIN) man completions
	$(INSTALL) -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ssdbench
	$(INSTALL) -d $(DESTDIR)$(SHAREDIR)/profiles $(DESTDIR)$(SHAREDIR)/schema $(DESTDIR)$(MAN1DIR) \
		$(DESTDIR)$(MAN5DIR)
	$(INSTALL) -m644 profiles/*.json $(DESTDIR)$(SHAREDIR)/profiles/
	$(INSTALL) -m644 schema/*.json $(DESTDIR)$(SHAREDIR)/schema/
	$(INSTALL) -m644 $(MANDIR)/*.1 $(DESTDIR)$(MAN1DIR)/
	$(INSTALL) -m644 $(MANDIR)/*.5 $(DESTDIR)$(MAN5DIR)/
	$(INSTALL) -Dm644 $(COMPLGEN)/ssdbench.bash $(DESTDIR)$(COMPLDIR)/ssdbench
	$(INSTALL) -Dm644 $(COMPLGEN)/ssdbench.zsh $(DESTDIR)$(ZSHCOMPLDIR)/_ssdbench
	$(INSTALL) -Dm644 $(COMPLGEN)/ssdbench.fish $(DESTDIR)$(FISHCOMPLDIR)/ssdbench.fish
	@# ssdbench-mpi beside it where `make mpi` built it (`make mpi install`)
	$(Q)if [ -x $(MPI_BIN) ]; then $(INSTALL) -Dm755 $(MPI_BIN) $(DESTDIR)$(PREFIX)/bin/ssdbench-mpi; fi

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ssdbench $(DESTDIR)$(PREFIX)/bin/ssdbench-mpi $(DESTDIR)$(COMPLDIR)/ssdbench
	rm -f $(DESTDIR)$(ZSHCOMPLDIR)/_ssdbench $(DESTDIR)$(FISHCOMPLDIR)/ssdbench.fish
	rm -f $(DESTDIR)$(MAN1DIR)/ssdbench.1 $(DESTDIR)$(MAN1DIR)/ssdbench-*.1 $(DESTDIR)$(MAN5DIR)/ssdbench-*.5
	rm -f $(addprefix $(DESTDIR)$(SHAREDIR)/,$(wildcard profiles/*.json schema/*.json))
	rmdir $(DESTDIR)$(SHAREDIR)/profiles $(DESTDIR)$(SHAREDIR)/schema $(DESTDIR)$(SHAREDIR) 2>/dev/null || true

# The Debian package (debian/), built by dpkg-buildpackage from a copy of the tracked files in a
# temporary directory, so that nothing is written beside the tree; the .deb lands in DEBDIR.
DEBDIR ?= build/deb
deb:
	@scripts/install-deps.sh --package
	$(Q)scripts/build-deb.sh $(DEBDIR)

# build/ holds make run's scratch file (RUN_SCRATCH); ./ssdbench.scratch is the one `ssdbench run`
# with no target (and `make run` before it moved) leaves in the tree.
clean:
	rm -rf build ssdbench ssdbench-mpi ssdbench.scratch $(RUN_SCRATCH)

# Fuzzing (tests/fuzz/README.md): libFuzzer targets built with clang, ASan and UBSan into build/fuzz
# (its own objects of src/*.c, not the normal build). `make fuzz` runs each target FUZZ_SECONDS on a
# copy of its seed corpus in build/fuzz/corpus-<t>, then replays tests/fuzz/regressions/<t>/; it
# fails if any target crashes, hangs or leaks. `make fuzz-regress` only replays the seed corpus and
# the regressions (seconds). Neither is part of `make check`.
FUZZ_CC      ?= clang
FUZZ_CXX     ?= clang++
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := parse profile result criteria trace
FUZZ_BUILD   := build/fuzz
FUZZ_SAN     := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS  := -std=c11 -O1 -g $(WARN) -MMD -MP -pthread $(FUZZ_SAN)
ifneq ($(WERROR),0)
FUZZ_CFLAGS  += -Werror
endif
FUZZ_CXXFLAGS := -std=c++17 -O1 -g -Wall -Wextra -fno-exceptions -fno-rtti -MMD -MP -pthread $(FUZZ_SAN)
ifneq ($(WERROR),0)
FUZZ_CXXFLAGS += -Werror
endif
FUZZ_OBJS    := $(patsubst src/%.c,$(FUZZ_BUILD)/%.o,$(filter-out src/cli/main.c,$(SRCS))) \
                $(patsubst src/%.cc,$(FUZZ_BUILD)/%.o,$(CXXSRCS))
FUZZ_BINS    := $(patsubst %,$(FUZZ_BUILD)/fuzz_%,$(FUZZ_TARGETS))
FUZZ_OPTS    := -timeout=10 -rss_limit_mb=2048
FUZZ_ENV     := ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

.PHONY: fuzz fuzz-build fuzz-regress fuzz-run fuzz-replay
fuzz-build: $(FUZZ_BINS)

$(FUZZ_BUILD)/%.o: src/%.c
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/%.o: src/%.cc
	@mkdir -p $(@D)
	@echo "  CXX     $< (fuzz)"
	$(Q)$(FUZZ_CXX) $(CPPFLAGS) $(FUZZ_CXXFLAGS) -c -o $@ $<

$(FUZZ_BUILD)/libssdbench.a: $(FUZZ_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h $(FUZZ_BUILD)/libssdbench.a
	@mkdir -p $(@D)
	@echo "  CC      $< (fuzz)"
	$(Q)$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -o $@ $< $(FUZZ_BUILD)/libssdbench.a $(LDLIBS)

# Replays every file of a directory, one process each (libFuzzer runs a file argument once), so
# that every failing input is named. $(1): target, $(2): directory. Adds to the shell's $$failed.
define fuzz_replay
n=0; bad=0; for f in $$(find $(2) -type f ! -name '.*' 2>/dev/null | sort); do \
	n=$$((n + 1)); rlog=$(FUZZ_BUILD)/replay-$(1)-$${f##*/}.log; \
	if $(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_$(1) $(FUZZ_OPTS) $$f >$$rlog 2>&1; then rm -f $$rlog; else \
		bad=$$((bad + 1)); \
		echo "   FAIL $$f: $$(grep -m1 -E 'runtime error|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)' $$rlog | sed 's/^==[0-9]*== *//') (log: $$rlog)"; \
	fi; \
done; \
if [ $$n -gt 0 ]; then echo "   replay $(2): $$n inputs, $$bad failed"; fi; \
if [ $$bad -gt 0 ]; then failed="$$failed $(1):$(2)"; fi
endef

# As `check`: install what is missing (clang, libFuzzer) first, then build and run.
fuzz: deps
	$(Q)$(MAKE) --no-print-directory fuzz-run

fuzz-regress: deps
	$(Q)$(MAKE) --no-print-directory fuzz-replay

fuzz-run: $(FUZZ_BINS)
	@failed=""; for t in $(FUZZ_TARGETS); do \
		corpus=$(FUZZ_BUILD)/corpus-$$t; art=$(FUZZ_BUILD)/artifacts-$$t/; log=$(FUZZ_BUILD)/fuzz-$$t.log; \
		mkdir -p $$corpus $$art && cp tests/fuzz/corpus/$$t/* $$corpus/; \
		dict=; [ -f tests/fuzz/$$t.dict ] && dict=-dict=tests/fuzz/$$t.dict; \
		echo "== fuzz_$$t: $(FUZZ_SECONDS) s on $$corpus"; \
		if $(FUZZ_ENV) $(FUZZ_BUILD)/fuzz_$$t $(FUZZ_OPTS) -max_total_time=$(FUZZ_SECONDS) \
			-print_final_stats=1 -artifact_prefix=$$art $$dict $$corpus >$$log 2>&1; then \
			grep -E '^#[0-9]+' $$log | tail -n 1; grep -E '^(Done|stat::average_exec_per_sec)' $$log; \
		else \
			awk '/runtime error|ERROR: |ALARM: |deadly signal/ { p = 1 } p' $$log | head -n 40; \
			echo "fuzz_$$t FAILED: reproducer in $$art (log: $$log); save it in tests/fuzz/regressions/$$t/"; \
			failed="$$failed $$t"; \
		fi; \
		$(call fuzz_replay,$$t,tests/fuzz/regressions/$$t); \
	done; \
	if [ -n "$$failed" ]; then echo "fuzzing failed:$$failed"; exit 1; fi

fuzz-replay: $(FUZZ_BINS)
	@failed=""; for t in $(FUZZ_TARGETS); do \
		echo "== fuzz_$$t: replay"; \
		$(call fuzz_replay,$$t,tests/fuzz/corpus/$$t); \
		$(call fuzz_replay,$$t,tests/fuzz/regressions/$$t); \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz regressions failed:$$failed"; exit 1; fi

-include $(shell find build $(BUILD) -name '*.d' 2>/dev/null | sort -u)
