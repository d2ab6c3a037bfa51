"""The files to scan: named files as given; directories walked, without what .gitignore ignores,
filtered by --include / --exclude globs, kept only when an extractor reads their kind.

Inside a git work tree git itself says what is ignored (``git ls-files --cached --others
--exclude-standard``: nested .gitignore files, .git/info/exclude, core.excludesFile, exactly as git
reads them). Outside one, the .gitignore files met on the way are read here with the rules of
gitignore(5): blank lines and '#' comments skipped, '!' re-includes, a trailing '/' matches
directories only, a '/' elsewhere anchors the pattern to the .gitignore's directory, '*', '?',
'[...]' and '**'; the last matching pattern wins; an ignored directory is not entered.
"""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass

from jmsctl.scan.extractors import extractors, for_path


class WalkError(Exception):
    """A path that cannot be scanned (missing, unreadable): exit status 2."""


@dataclass(frozen=True)
class Filters:
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()

    def wants(self, rel: str) -> bool:
        base = rel.rsplit("/", 1)[-1]
        if any(_glob(rel, base, g) for g in self.exclude):
            return False
        return not self.include or any(_glob(rel, base, g) for g in self.include)

    def prunes(self, rel_dir: str) -> bool:
        base = rel_dir.rsplit("/", 1)[-1]
        return any(_glob(rel_dir, base, g.rstrip("/")) for g in self.exclude)


def _glob(rel: str, base: str, pattern: str) -> bool:
    """A glob with '/' matches the path from the scanned root ('**/' any directories); without, the name."""
    if "/" in pattern.rstrip("/"):
        return _gitglob(pattern.strip("/")).fullmatch(rel) is not None
    return fnmatch.fnmatchcase(base, pattern)


def files(path: str, filters: Filters) -> Iterator[str]:
    """The files under ``path`` to scan (a named file is scanned whatever the filters and .gitignore say,
    and is an error when no extractor reads its kind)."""
    if os.path.isfile(path):
        if for_path(path) is None:
            kinds = " ".join(sorted({s for ex in extractors() for s in ex.suffixes}))
            raise WalkError(f"{path}: not a kind of file scan reads ({kinds})")
        yield path
        return
    if not os.path.isdir(path):
        raise WalkError(f"{path}: {'no such file or directory' if not os.path.lexists(path) else 'not a file or directory'}")
    listed = _git_files(path)
    candidates = listed if listed is not None else _walk(path, filters)
    wanted = []
    for rel in candidates:
        full = os.path.join(path, rel) if path != "." else rel
        if for_path(rel) is not None and filters.wants(rel) and os.path.isfile(full):
            wanted.append(full)
    # A symlinked file whose target is walked too is scanned once, as its target: the same
    # selectors twice would be counted twice and patched twice (one hunk the patch cannot apply).
    real = {os.path.realpath(f) for f in wanted if not os.path.islink(f)}
    seen: set[str] = set()
    for full in wanted:
        target = os.path.realpath(full)
        if (os.path.islink(full) and target in real) or target in seen:
            continue
        seen.add(target)
        yield full


def _git_files(path: str) -> list[str] | None:
    """Paths relative to ``path`` that git does not ignore, or None outside a git work tree (or without git)."""
    try:
        inside = subprocess.run(["git", "-C", path, "rev-parse", "--is-inside-work-tree"], capture_output=True, text=True, timeout=60)
        if inside.returncode != 0 or inside.stdout.strip() != "true":
            return None
        out = subprocess.run(["git", "-C", path, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", "."],
                             capture_output=True, timeout=600, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    names = out.stdout.decode("utf-8", errors="surrogateescape").split("\0")
    return sorted({n for n in names if n and not n.startswith(".git/")})


def _walk(root: str, filters: Filters) -> Iterator[str]:
    rules: dict[str, list[tuple[re.Pattern[str], bool, bool]]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        rel_dir = "" if rel_dir == "." else rel_dir
        rules[rel_dir] = _read_gitignore(os.path.join(dirpath, ".gitignore"))
        keep = []
        for d in sorted(dirnames):
            rel = f"{rel_dir}/{d}" if rel_dir else d
            if d == ".git" or os.path.islink(os.path.join(dirpath, d)) or _ignored(rules, rel, True) or filters.prunes(rel):
                continue
            keep.append(d)
        dirnames[:] = keep
        for name in sorted(filenames):
            rel = f"{rel_dir}/{name}" if rel_dir else name
            if not _ignored(rules, rel, False):
                yield rel


def _read_gitignore(path: str) -> list[tuple[re.Pattern[str], bool, bool]]:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        line = line.rstrip(" ") if not line.endswith("\\ ") else line
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        line = line[1:] if negate else line
        line = line[1:] if line.startswith("\\") else line
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        anchored = "/" in line
        pattern = _gitglob(line.lstrip("/"))
        if not anchored:
            pattern = re.compile(r"(?:.*/)?" + pattern.pattern)
        out.append((pattern, negate, dir_only))
    return out


def _ignored(rules: dict[str, list[tuple[re.Pattern[str], bool, bool]]], rel: str, is_dir: bool) -> bool:
    """Whether a path is ignored by the .gitignore files of its ancestors (deeper files win)."""
    ignored = False
    parts = rel.split("/")
    for depth in range(len(parts)):
        base = "/".join(parts[:depth])
        sub = "/".join(parts[depth:])
        for pattern, negate, dir_only in rules.get(base, ()):
            if dir_only and not is_dir:
                continue
            if pattern.fullmatch(sub):
                ignored = not negate
    return ignored


def _gitglob(glob: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(glob):
        if glob.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif glob.startswith("/**", i) and i + 3 == len(glob):
            out.append("/.*")
            i += 3
        elif glob.startswith("**", i):
            out.append(".*")
            i += 2
        elif glob[i] == "*":
            out.append("[^/]*")
            i += 1
        elif glob[i] == "?":
            out.append("[^/]")
            i += 1
        elif glob[i] == "[":
            close = glob.find("]", i + 2)
            if close < 0:
                out.append(re.escape("["))
                i += 1
            else:
                body = glob[i + 1 : close]
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
                i = close + 1
        else:
            out.append(re.escape(glob[i]))
            i += 1
    return re.compile("".join(out))
