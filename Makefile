# SPDX-License-Identifier: MIT
# ssdbench: a plain Makefile. `make` builds ./ssdbench, `make check` runs every test,
# `make sanitize` runs them under ASan and UBSan, `make run` runs the demo. V=1 shows commands.

CC      ?= cc
PKGS    := liburing jansson blkid
VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
GITREV  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

OPT      ?= -O2 -g
WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 -Wvla \
            -Wcast-qual -Wno-format-nonliteral
CPPFLAGS += -Iinclude -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
            -DSSDBENCH_VERSION='"$(VERSION)"' -DSSDBENCH_GITREV='"$(GITREV)"' \
            -DSSDBENCH_SHARE='"$(PREFIX)/share/ssdbench"'
CFLAGS   += -std=c11 $(OPT) $(WARN) -MMD -MP -pthread
LDLIBS   += $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -luring -ljansson -lblkid) -laio -lm -pthread
PREFIX   ?= /usr/local

ifneq ($(WERROR),0)
CFLAGS += -Werror
endif
ifneq ($(SANITIZE),)
ifeq ($(SANITIZE),1)
override SANITIZE := address,undefined
endif
CFLAGS  += -fsanitize=$(SANITIZE) -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=$(SANITIZE)
BUILD   := build/san
else
BUILD   := build/rel
endif

ifeq ($(V),1)
Q :=
else
Q := @
endif

SRCS     := $(wildcard src/*.c)
LIB_OBJS := $(patsubst src/%.c,$(BUILD)/%.o,$(filter-out src/main.c,$(SRCS)))
TESTS    := $(patsubst tests/%.c,$(BUILD)/tests/%,$(wildcard tests/test_*.c))
BIN      := ssdbench
ifneq ($(SANITIZE),)
BIN      := $(BUILD)/ssdbench
endif

.PHONY: all check unit integration sanitize run deps clean install bench
all: $(BIN)

$(BIN): $(BUILD)/main.o $(BUILD)/libssdbench.a
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libssdbench.a: $(LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: src/%.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(BUILD)/libssdbench.a
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libssdbench.a $(LDLIBS) -lcmocka

deps:
	@scripts/install-deps.sh

# The unit tests (cmocka, one binary per module), then the integration tests against the real binary.
unit: $(TESTS)
	@failed=""; for t in $(TESTS); do echo "== $$t"; $$t || failed="$$failed $$t"; done; \
	if [ -n "$$failed" ]; then echo "unit tests failed:$$failed"; exit 1; fi

integration: $(BIN)
	@SSDBENCH=$(abspath $(BIN)) tests/integration/run-all.sh

check: deps
	$(Q)$(MAKE) --no-print-directory unit integration

sanitize:
	$(Q)$(MAKE) --no-print-directory check SANITIZE=address,undefined

run:
	@scripts/install-deps.sh --build-only
	$(Q)$(MAKE) --no-print-directory $(BIN)
	./$(BIN) run --profile quick

bench: $(BIN)
	scripts/bench-vs-fio.sh

install: $(BIN)
	install -Dm755 $(BIN) $(DESTDIR)$(PREFIX)/bin/ssdbench
	install -d $(DESTDIR)$(PREFIX)/share/ssdbench/profiles
	cp -r profiles/. $(DESTDIR)$(PREFIX)/share/ssdbench/profiles/

clean:
	rm -rf build ssdbench

-include $(shell find build -name '*.d' 2>/dev/null)
