#!/usr/bin/env python3
"""docs_examples.py: the examples of the documentation are what the
program prints.

usage: docs_examples.py ATTN_TRACE FILE...

In each FILE, an indented code block that starts with a line
"    $ attn-trace ..." is an example: the command, then excerpts of what it
prints.  The command is run (with ATTN_TRACE for attn-trace, through
/bin/sh, standard error with standard output), and every line of the
block after it, but lines of "..." (elisions) and blank lines, must be a
whole line of its output, in the order the block gives them.  A block
whose command names a file that does not exist (an example of an error
in a file the reader would write) is skipped.  In a quiz session, a line
"answer> X" is what the reader types: X goes to the command's standard
input, and the prompt is taken off the start of the output's lines.  Prints one "ok"/"not ok"
line per example; exits 1 if any differs.
"""
import os
import re
import subprocess
import sys


def examples(path):
    """Yields (line number, command, expected lines) of path's examples."""
    lines = open(path, encoding="utf-8").read().split("\n")
    k = 0
    while k < len(lines):
        m = re.match(r"^    \$ (attn-trace .*)$", lines[k])
        if not m:
            k += 1
            continue
        start, cmd, want = k + 1, m.group(1), []
        k += 1
        while k < len(lines) and (lines[k].startswith("    ") or
                                  lines[k] == ""):
            if re.match(r"^    \$ ", lines[k]):
                break
            body = lines[k][4:]
            if body.strip() not in ("", "..."):
                want.append(body)
            k += 1
        yield start, cmd, want


def missing_file(cmd):
    for opt in re.findall(r"--(?:model|batch|pairs)=(\S+)", cmd):
        if opt not in ("toy4", "handset4", "-") and not os.path.exists(opt):
            return opt
    return None


def main():
    prog, files = sys.argv[1], sys.argv[2:]
    bad = 0
    env = dict(os.environ, LC_ALL="C.UTF-8", COLUMNS="80")
    env.pop("NO_COLOR", None)
    for path in files:
        for line, cmd, want in examples(path):
            name = "%s:%d: %s" % (os.path.basename(path), line, cmd)
            skip = missing_file(cmd)
            if skip:
                print("ok - %s # SKIP an example of %s, which the reader "
                      "writes" % (name, skip))
                continue
            typed = [w[len("answer> "):] for w in want
                     if w.startswith("answer> ")]
            want = [w for w in want if not w.startswith("answer> ")]
            run = cmd.replace("attn-trace", "'%s'" % prog, 1)
            out = subprocess.run(["/bin/sh", "-c", run + " 2>&1"],
                                 input="".join(t + "\n" for t in typed)
                                 .encode("utf-8"),
                                 capture_output=True, env=env).stdout
            got = out.decode("utf-8", "replace").split("\n")
            if typed:
                got = [re.sub(r"^(answer> )+", "", g) for g in got]
            at, missing = 0, None
            for w in want:
                try:
                    at = got.index(w, at) + 1
                except ValueError:
                    missing = w
                    break
            if missing is None:
                print("ok - %s" % name)
            else:
                bad += 1
                print("not ok - %s: the program does not print, in this "
                      "order, the line\n#   %s" % (name, missing))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
