"""registry.py: the program's registries, as attn-trace lists them, for
the Python checks: they run what the program has, not a list of their own,
so a new scorer, window or model is checked (or reported as having no
reference) without editing them."""

import re
import subprocess

TIMEOUT = 60


def lines(binary, *args):
    """The lines that `binary args...` prints; raises RuntimeError if it
    fails."""
    proc = subprocess.run([binary] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=TIMEOUT)
    if proc.returncode != 0:
        raise RuntimeError("%s %s: status %d: %s"
                           % (binary, " ".join(args), proc.returncode,
                              proc.stderr.decode("utf-8", "replace")))
    return proc.stdout.decode("utf-8").splitlines()


def scorers(binary):
    """[(name, sections)] in the registry's order, which --scorer=all
    follows: sections are the model sections the scorer's weights are in
    ("general" for [general.W]), empty when it needs none."""
    out, name = [], None
    for line in lines(binary, "scorers"):
        if not line.startswith(" "):
            name = line.split()[0]
        elif line.strip().startswith("weights:"):
            secs = []
            for w in re.findall(r"\[([^\]]+)\]", line):
                sec = w.rsplit(".", 1)[0]
                if sec not in secs:
                    secs.append(sec)
            out.append((name, tuple(secs)))
    return out


def values(binary, option, command="trace"):
    """The values `option` takes in `command`, from the program's table of
    options and its registries ('attn-trace options --values'), without
    the markers (@list, @file, ...)."""
    return [v for v in lines(binary, "options", "--values=" + option,
                             command) if not v.startswith("@")]


def windows(binary):
    return values(binary, "--window")


def architectures(binary):
    return [a for a in values(binary, "--arch") if a != "all"]


def models(binary):
    return lines(binary, "models", "--names")
