"""A solve that cannot fit in memory is refused before it writes anything, in one line;
one that fits under a limit sized from the bytes a position costs completes.

The estimate of a list's positions (`ghostdb.games.ghost.estimate`) is checked against
the counts the graph builder makes.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import dump, run
from test_wordlists import debian_list

from ghostdb import memory
from ghostdb.games.ghost.estimate import estimate_positions
from ghostdb.games.ghost.graph import build_graph, game_words
from ghostdb.games.ghost.rules import Rules, Variant
from ghostdb.memory import BYTES_PER_POSITION

BIN = Path(sys.executable).parent


@pytest.mark.parametrize("variant", [Variant.GHOST, Variant.SUPER, Variant.SUPERDUPER])
def test_the_estimate_is_near_the_count(enable1: Path, variant: Variant) -> None:
    """Within -10% and +30% of the fragments ENABLE really makes (it errs high, so a
    solve that fits is rarely refused and one that does not is)."""
    from ghostdb import wordlists

    words = game_words(wordlists.load(enable1).words, 3)
    rules = Rules(variant=variant, min_length=3)
    estimate, count = estimate_positions(words, rules), build_graph(words, rules).size
    assert 0.9 <= estimate / count <= 1.3, (estimate, count)
    small = words[:5000]  # small enough to be counted exactly
    assert estimate_positions(small, rules) == build_graph(small, rules).size


@pytest.fixture
def ingested(tmp_path: Path, enable1: Path) -> Path:
    """A database holding ENABLE and nothing solved."""
    db = tmp_path / "ghost.db"
    assert run("ingest", str(enable1), db=db)[0] == 0
    return db


def test_a_solve_that_cannot_fit_is_refused_in_one_line(
    ingested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, before = ingested, dump(ingested)
    room = [(10**12, "available memory", 360), (50_000_000, "the cgroup's memory limit", 360)]
    monkeypatch.setattr(memory, "available", lambda: room)
    code, out, err = run("solve", "enable1", "--rules", "superduper", db=db)
    assert code == 1 and out == ""
    assert err.startswith("error: solving enable1 for SuperDuperGhost") and err.count("\n") == 1
    assert "the cgroup's memory limit leaves 0.1 GB" in err and "nothing was changed" in err
    assert dump(db) == before  # no job row either
    monkeypatch.setenv("GHOSTDB_MEMORY_CHECK", "0")  # the way round a wrong estimate
    assert run("solve", "enable1", "--rules", "superduper", db=db)[0] == 0
    monkeypatch.delenv("GHOSTDB_MEMORY_CHECK")
    # A list whose every possible fragment fits is never even estimated.
    monkeypatch.setattr(memory, "available", lambda: [(10**12, "available memory", 360)])

    def never(*_: object) -> None:
        raise AssertionError("estimated")

    from ghostdb.games.ghost import GhostGame

    monkeypatch.setattr(GhostGame, "estimate_positions", never)
    assert run("solve", "enable1", "--min-length", "4", db=db)[0] == 0


def test_solves_side_by_side_share_the_memory(
    ingested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`solve --all --jobs 2`: each of two solves at once counts on half the available
    memory (an address-space limit is each process's own), and one that cannot fit in
    its half is refused before it writes anything."""
    from concurrent import futures

    from ghostdb import open_store
    from ghostdb.errors import TooBig
    from ghostdb.games.ghost import GhostGame
    from ghostdb.store.solving import jobs, workers

    duper = [Rules(Variant.SUPERDUPER, 3), Rules(Variant.SUPERDUPER, 4)]
    with open_store(ingested) as store:
        words = game_words(store.words("enable1"), 3)
    game = GhostGame(duper[0])
    room = game.estimate_positions(words) * 240 * 3 // 2  # one solve fits, not in half
    monkeypatch.setattr(memory, "available", lambda: [(room, "available memory", 240)])
    memory.check(game, words, "enable1")
    with pytest.raises(TooBig, match=r"for each of 2 solves side by side: .* fewer --jobs"):
        memory.check(game, words, "enable1", workers=2)
    monkeypatch.setattr(memory, "available", lambda: [(room, memory.ADDRESS_SPACE, 240)])
    memory.check(game, words, "enable1", workers=2)

    # The workers are told how many run at once (in threads here, to see the refusal).
    monkeypatch.setattr(workers, "pool", futures.ThreadPoolExecutor)
    monkeypatch.setattr(memory, "available", lambda: [(room, "available memory", 240)])
    before = dump(ingested)
    with open_store(ingested) as store, pytest.raises(TooBig, match="each of 2 solves"):
        list(jobs.solve_in_workers(store.engine, "enable1", duper, 2, False))
    assert dump(ingested) == before


@pytest.mark.parametrize("variant", [Variant.INSERT, Variant.ANAGRAM])
def test_insert_and_anagram_are_estimated_high(enable1: Path, variant: Variant) -> None:
    """Estimated as SuperDuperGhost's infixes (Anagram's weighed): never below the count,
    and the cheap bound above the estimate."""
    from ghostdb import wordlists
    from ghostdb.games.ghost import GhostGame

    words = game_words(wordlists.load(enable1).words, 3)
    game = GhostGame(Rules(variant=variant, min_length=3))
    estimate, count = game.estimate_positions(words), game.build(words).size
    assert estimate is not None and count <= estimate <= 3 * count, (estimate, count)
    assert game.positions_at_most(words) >= estimate


def test_an_anagram_solve_that_cannot_fit_is_refused_in_one_line(
    ingested: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db, before = ingested, dump(ingested)
    monkeypatch.setattr(memory, "available", lambda: [(200_000_000, "available memory", 240)])
    code, out, err = run("solve", "enable1", "--rules", "anagram", db=db)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert (
        err.startswith("error: solving enable1 for Anagram Ghost") and "nothing was changed" in err
    )
    assert dump(db) == before


def _limited(cap: int) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


@pytest.mark.slow
@pytest.mark.long  # a SuperDuperGhost solve of a big list
def test_superduperghost_on_an_eighth_of_polish_under_an_address_space_limit(
    tmp_path: Path,
) -> None:
    """Every 8th word of Debian's Polish list (half a million words, about 7 million
    SuperDuperGhost fragments): under ``ulimit -v`` sized from `BYTES_PER_POSITION` and
    the estimate, the solve completes; under a third of that it is refused before it
    writes, in one line, the store as it was."""
    polish = debian_list("polish", "wpolish")
    subset = tmp_path / "polish8.txt"
    with polish.open(encoding="utf-8") as src, subset.open("w", encoding="utf-8") as out:
        out.writelines(line for i, line in enumerate(src) if i % 8 == 0)
    db = tmp_path / "ghost.db"
    assert run("ingest", str(subset), db=db)[0] == 0
    from ghostdb import open_store

    with open_store(str(db), create=True) as store:
        words = game_words(store.words("polish8"), 3)
    rules = Rules(variant=Variant.SUPERDUPER, min_length=3)
    need = estimate_positions(words, rules) * BYTES_PER_POSITION
    base = 700 * 2**20  # the interpreter, its libraries, SQLite and the word list
    command = [str(BIN / "ghostdb"), "solve", "polish8", "--rules", "superduper"]
    command += ["--db", str(db)]
    before = dump(db)
    small = subprocess.run(
        command, capture_output=True, text=True, preexec_fn=lambda: _limited(need // 3)
    )
    assert small.returncode == 1 and small.stdout == "", small.stderr
    assert small.stderr.startswith("error: solving polish8") and small.stderr.count("\n") == 1
    assert "the address-space limit (ulimit -v)" in small.stderr
    assert dump(db) == before
    done = subprocess.run(
        command, capture_output=True, text=True, preexec_fn=lambda: _limited(need + base)
    )
    assert done.returncode == 0, done.stderr
    assert "solved polish8 for SuperDuperGhost" in done.stdout


def test_a_cgroup_limit_is_read_from_the_process_own_cgroup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """cgroup v2: the process's own cgroup's limit, less what it uses but its page cache
    of files not recently used (the kernel reclaims that before the limit bites)."""
    files = {
        "/proc/self/cgroup": "0::/system.slice/ghostdb.service\n",
        "/sys/fs/cgroup/system.slice/ghostdb.service/memory.max": "4000000000\n",
        "/sys/fs/cgroup/system.slice/ghostdb.service/memory.current": "3000000000\n",
        "/sys/fs/cgroup/system.slice/ghostdb.service/memory.stat": (
            "anon 1000000000\nfile 2000000000\ninactive_file 1500000000\n"
        ),
        "/sys/fs/cgroup/memory.max": "max\n",
    }
    monkeypatch.setattr(memory, "_read", lambda path: files.get(path, ""))
    assert memory._cgroup_room() == 4_000_000_000 - (3_000_000_000 - 1_500_000_000)
    files["/sys/fs/cgroup/system.slice/ghostdb.service/memory.max"] = "max\n"
    assert memory._cgroup_room() is None  # no limit anywhere


def test_give_back_returns_freed_heap_memory_to_the_system() -> None:
    """What a solve frees in the middle of the heap stays the process's until
    `memory.give_back`: blocks below glibc's mmap threshold, freed under one still held
    at the top, are not returned by ``free``.  Run in a fresh process, so that nothing
    else this test session holds decides the heap's shape."""
    if memory._malloc_trim() is None:
        pytest.skip("the C library is not glibc: there is no malloc_trim to give memory back")
    code = """
import numpy as np
from ghostdb import memory

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096

memory.give_back()
blocks = [np.ones(4000) for _ in range(20_000)]  # 32 kB each, 640 MB, from the heap
top = np.ones(4000)  # held: the heap cannot shrink from its end
del blocks
before = rss()
memory.give_back()
print(before - rss())
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) > 400_000_000  # most of the 640 MB freed was given back
