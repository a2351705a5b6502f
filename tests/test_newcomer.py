"""The first ten minutes: on a fresh clone, with the system's bare Python, the README's
main job runs as written and exits 0, and so does its Python example after it.  (Its
test command is the one running this; its console examples are tests/test_readme.py's.)

And what a newcomer met next (issue #45): each edge found on a first walk through the
README, the manual and the commands, with a test that it stays smooth."""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import ROOT, run

from ghostdb import open_store
from ghostdb.errors import DatabaseError

PYTHON = shutil.which("python3")


@pytest.mark.slow
@pytest.mark.long  # a fresh virtual environment installed
@pytest.mark.skipif(
    PYTHON is None, reason="needs python3 on PATH for a bare Python: apt-get install python3"
)
@pytest.mark.skipif(
    not (ROOT / ".git").exists(),
    reason="needs a git checkout to clone: run it in a git clone of ghostdb",
)
def test_the_readmes_main_job_on_a_fresh_clone(tmp_path: Path) -> None:
    clone = tmp_path / "ghostdb"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    readme = (clone / "README.md").read_text()
    main_job = re.search(r"```sh\n(python3 -m venv .venv && .*?)\n```", readme)[1]  # type: ignore[index]
    assert "ghostdb openings web2" in main_job
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "GHOSTDB"))}
    env["PATH"] = os.pathsep.join(
        p for p in env["PATH"].split(os.pathsep) if not Path(p, "activate").exists()
    )
    proc = subprocess.run(
        ["bash", "-c", main_job], cwd=clone, env=env, capture_output=True, text=True, timeout=1500
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "player 0 wins, with a, h, l" in proc.stdout
    example = readme.split("```python\n", 1)[1].split("```", 1)[0]
    proc = subprocess.run(
        [str(clone / ".venv" / "bin" / "python"), "-c", example],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and proc.stdout.split() == ["win", "u", "4"], proc.stderr


# -- open_store refuses a database that does not exist, as the command line does ----------


def test_open_store_refuses_a_missing_file_and_creates_only_when_asked(tmp_path: Path) -> None:
    missing = tmp_path / "ghots.db"
    with pytest.raises(DatabaseError, match=r"no database at .*ghots\.db.*create=True"):
        open_store(missing)
    with pytest.raises(DatabaseError, match="create=True"):
        open_store(str(missing), readonly=True)
    assert not missing.exists()  # a mistyped path leaves nothing behind
    with open_store(missing, create=True) as store:
        assert store.dictionaries() == []
    with open_store(missing) as store:  # it exists now
        assert store.dictionaries() == []


# -- one move list: as `play` prints it, space-separated, commas accepted everywhere -----


def test_a_move_list_as_play_prints_it_is_taken_by_play_analyse_and_the_api(
    small_web_db: Path,
) -> None:
    from fastapi.testclient import TestClient

    from ghostdb.web import create_app

    code, out, _ = run("play", "five", "--moves", "t r", "--json", db=small_web_db)
    assert code == 0 and json.loads(out)["moves"] == ["t", "r"]
    assert run("play", "five", "--moves", "t,r", "--json", db=small_web_db)[1] == out
    code, out, _ = run("analyse", "five", "t r e", "--json", db=small_web_db)
    assert code == 0
    by_cli = json.loads(out)
    with open_store(small_web_db) as store, TestClient(create_app(store)) as client:
        for moves in ("t r e", "t,r,e", "t, r ,e"):
            reply = client.get("/api/five/analyse", params={"moves": moves})
            assert reply.status_code == 200, reply.text
            assert reply.json() == by_cli


# -- one policy for what a command writes: refuse what is there unless --force -------------


def test_pack_and_the_exports_refuse_what_is_there_unless_forced(
    five: Path, tmp_path: Path
) -> None:
    from ghostdb.pack.format import MAGIC

    pack = tmp_path / "five.ghostpack"
    pack.write_text("mine")
    code, _, err = run("pack", "five", "-o", str(pack), db=five)
    assert code == 1 and err.count("\n") == 1 and "--force" in err, err
    assert pack.read_text() == "mine"
    assert run("pack", "five", "-o", str(pack), "--force", db=five)[0] == 0
    assert pack.read_bytes().startswith(MAGIC)

    site = tmp_path / "site"
    assert run("export", "site", "five", "-o", str(site), db=five)[0] == 0
    (site / "left-from-before.txt").write_text("")
    code, _, err = run("export", "site", "five", "-o", str(site), db=five)
    assert code == 1 and err.count("\n") == 1 and "--force" in err, err
    assert run("export", "site", "five", "-o", str(site), "--force", db=five)[0] == 0
    assert (site / "site.json").is_file() and not (site / "left-from-before.txt").exists()
    notes = tmp_path / "notes"  # a folder of someone's files: --force does not delete it
    notes.mkdir()
    (notes / "todo.txt").write_text("keep")
    code, _, err = run("export", "site", "five", "-o", str(notes), "--force", db=five)
    assert code == 1 and err.count("\n") == 1 and "new folder" in err, err
    assert [p.name for p in notes.iterdir()] == ["todo.txt"]

    pytest.importorskip("pyarrow", reason="export parquet needs pyarrow: pip install -e '.[dev]'")
    out = tmp_path / "parquet"
    assert run("export", "parquet", "five", "-o", str(out), db=five)[0] == 0
    code, _, err = run("export", "parquet", "five", "-o", str(out), db=five)
    assert code == 1 and err.count("\n") == 1 and "--force" in err, err
    assert run("export", "parquet", "five", "-o", str(out), "--force", db=five)[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "five.ghostpack",
        "ghost.db",
        "notes",
        "parquet",
        "site",
    ]  # nothing half made or moved aside left behind


# -- the tutorial's --why is a command that runs -------------------------------------------


def test_the_tutorials_compare_why_is_a_command_that_runs(five: Path, tmp_path: Path) -> None:
    """The tutorial offered `compare --why` after a --vs-min-length comparison, where
    --why is refused; the command it names now runs (with two small lists for web2 and
    the OTHER it leaves to the reader)."""
    import shlex

    from conftest import write_list

    with open_store(five) as store:
        store.ingest(write_list(tmp_path, "ghost green tan tree tries trot", "w"), name="web2")
        store.ingest(write_list(tmp_path, "ghost green tan tree", "other"), name="other")
        store.solve("web2")
        store.solve("other")
    tutorial = (ROOT / "docs" / "tutorial.md").read_text()
    spans = re.findall(r"`([^`]*compare[^`]*--why[^`]*)`", re.sub(r"\s*\n\s*", " ", tutorial))
    assert spans
    for span in spans:
        words = shlex.split(span)
        assert words[:2] == ["ghostdb", "compare"], span
        args = ["other" if w.isupper() else w for w in words[1:]]
        code, out, err = run(*args, db=five)
        assert code == 0 and "why:" in out, (span, err)


# -- the puzzle answers ? with its candidates, and says so ---------------------------------


def test_a_puzzle_lists_its_moves_on_a_question_mark(five: Path) -> None:
    from typer.testing import CliRunner

    from ghostdb.cli.group import app

    _, out, _ = run("puzzle", "five", "--seed", "1", "--json", db=five)
    found = json.loads(out)
    with open_store(five) as store:
        moves = [p.move for p in store.solution("five").lookup(found["position"]).plays]
    assert found["answer"] in moves and len(moves) == 1 + found["other_moves"]
    args = ["puzzle", "five", "--seed", "1", "--db", str(five)]
    shown = CliRunner().invoke(app, args, input="?\n")
    assert shown.exit_code == 0, shown.output
    lines = shown.stdout.splitlines()
    assert lines[1].endswith("(? lists the moves)")  # the prompt says so
    assert f"the moves: {' '.join(moves)}" in lines  # without their values
    assert lines[-1].startswith(f"the winning move: {found['answer']}")


# -- a move's JSON names whose view each value is in ---------------------------------------


def test_a_moves_json_names_whose_view_each_value_is_in(small_web_db: Path) -> None:
    from fastapi.testclient import TestClient

    from ghostdb.web import create_app

    code, out, _ = run("lookup", "five", "g", "--json", db=small_web_db)
    assert code == 0
    by_cli = json.loads(out)["plays"]
    with open_store(small_web_db) as store, TestClient(create_app(store)) as client:
        by_api = client.get("/api/five/position", params={"position": "g"}).json()["plays"]
    assert by_api == by_cli
    for play in by_cli:  # g: player 1 wins with h or r
        assert play["outcome_for_mover"] == "win" and play["outcome_for_next_player"] == "loss"
        # the older names, kept for scripts written before
        assert play["category"] == play["outcome_for_mover"]
        assert play["outcome"] == play["outcome_for_next_player"]
        assert play["wins"] is True
    glossary = (ROOT / "docs" / "reference" / "glossary.md").read_text()
    assert "`category` is `outcome_for_mover`" in glossary


# -- --players is a count everywhere; play's and selfplay's seat list is --seats -----------


def test_players_is_a_count_everywhere_and_seats_the_list(five: Path) -> None:
    assert run("solve", "five", "--players", "3", db=five)[0] == 0
    code, out, err = run("play", "five", "--players", "3", "--moves", "t", "--json", db=five)
    assert code == 0, err
    assert json.loads(out)["players"] == ["human", "rational", "rational"]
    code, out, err = run(
        "selfplay", "five", "--players", "3", "--games", "2", "--seed", "1", "--json", db=five
    )
    assert code == 0, err
    args = ["five", "--moves", "t", "--json", "--seed", "1"]
    code, by_seats, err = run("play", *args, "--seats", "optimal,human", db=five)
    assert code == 0 and json.loads(by_seats)["players"] == ["optimal", "human"], err
    code, by_old, _ = run("play", *args, "--players", "optimal,human", db=five)  # older spelling
    assert (code, by_old) == (0, by_seats)
    code, _, err = run("play", *args, "--players", "3", "--seats", "human,optimal", db=five)
    assert code == 1 and err.count("\n") == 1 and "--seats names 2 seats" in err
    guide = (ROOT / "docs" / "guide" / "play.md").read_text()
    assert "older spelling of `--seats`" in guide


# -- verify FILE accounts for every position -----------------------------------------------


def test_verify_of_a_pack_says_the_positions_it_did_not_check_are_final(
    five: Path, tmp_path: Path
) -> None:
    pack = tmp_path / "five.ghostpack"
    assert run("pack", "five", "-o", str(pack), db=five)[0] == 0
    code, out, _ = run("verify", str(pack), "--json", db=five)
    found = json.loads(out)
    assert code == 0 and found["final"] > 0
    assert found["checked_from_moves"] + found["final"] == found["positions"]
    code, out, _ = run("verify", str(pack), db=five)
    assert code == 0
    assert (
        f"{found['checked_from_moves']} positions agree with their moves; "
        f"the other {found['final']} are final, valued by the rules; "
        "and every position agrees with the store" in out
    )


# -- an unknown name's suggestion is one that works ----------------------------------------


def test_an_unknown_dictionary_suggests_an_ingest_only_under_a_usable_name(five: Path) -> None:
    code, _, err = run("lookup", "", "q", db=five)
    assert code == 1 and err.count("\n") == 1 and "--name" not in err and "empty" in err, err
    code, _, err = run("lookup", "a b", "q", db=five)
    assert code == 1 and "--name" not in err and "ghostdb dictionaries" in err, err
    code, _, err = run("lookup", "nosuch", "q", db=five)
    assert code == 1 and "`ghostdb ingest PATH --name nosuch` adds one" in err, err


# -- the manual says where its word lists come from ----------------------------------------


def test_the_manual_says_where_enable_comes_from_before_using_it() -> None:
    """ENABLE is read from ../shared/wordlists/, which a reader outside this project's
    layout does not have: the first page to use it says what it is and where it comes
    from, and no recipe to copy (a ```sh block) names that path."""
    nav = re.findall(
        r"^\s*- (?:[^:\n]+: )?([\w/.-]+\.md)$", (ROOT / "mkdocs.yml").read_text(), re.M
    )
    pages = [ROOT / "docs" / page for page in nav]
    first = next(p for p in pages if "../shared/wordlists/" in p.read_text())
    text = first.read_text()
    said = text.find("aa2f7a2d2a38adb0faefc564d3eae7ef243048c9955d77afb7a86c366b4a8482")
    assert 0 <= said < text.index("../shared/wordlists/"), first
    assert "builtin:web2" in text[: said + 1000]
    for page in pages:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(), re.S):
            assert "../shared/" not in block, page


# -- the manual's build and the offline site do not share a folder -------------------------


def test_the_manual_builds_elsewhere_than_the_offline_sites_folder() -> None:
    """`mkdocs build` wrote ./site, the folder `ghostdb export site -o site` makes."""
    config = (ROOT / "mkdocs.yml").read_text()
    found = re.search(r"^site_dir: *(\S+)", config, re.M)
    assert found and Path(found[1]).parts[0] not in ("site", "offline-site")
    assert f"`{found[1]}/`" in (ROOT / "README.md").read_text()


# -- the packs the pages write are the files .gitignore ignores ----------------------------


def test_every_pack_file_the_pages_name_is_one_gitignore_ignores() -> None:
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "*.ghostpack" in ignored
    pages = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]
    named = {
        found
        for page in pages
        for found in re.findall(r"(?<![\w.])[\w-]+\.\w*pack\b", page.read_text())
        if found not in ("ghostdb.pack", "store.pack")  # the package and a method: no files
    }
    assert named and all(n.endswith(".ghostpack") for n in named), sorted(named)


# -- a skipped test says how to run it -----------------------------------------------------

HOW_TO_ENABLE = ("pip install", "apt-get install", "needs root", "git clone")
"""What a skip's reason names so that its reader can run the test: what to install, that
it takes root, or a clone.  (The PostgreSQL skip gives conftest.POSTGRES_SKIP, which names both
the URL's form and the driver to install.)"""
CANNOT_BE_ENABLED = ("the C library is not glibc", "cannot mount a tmpfs here", "cannot make")
"""Skips for what the machine is, which nothing installed changes."""


def skip_reasons() -> Iterator[tuple[str, int, str]]:
    """(file, line, reason) of every skip in the tests: pytest.skip(reason),
    pytest.importorskip(module, reason=…) and skipif(…, reason=…); the reason as written
    (a name such as POSTGRES_SKIP, or the text of a string or an f-string)."""
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
                continue
            kind = node.func.attr
            if kind not in ("skip", "importorskip", "skipif"):
                continue
            given = {k.arg: k.value for k in node.keywords}
            reason = given.get("reason", node.args[0] if kind == "skip" and node.args else None)
            text = "" if reason is None else ast.unparse(reason)
            yield path.name, node.lineno, text


def test_every_skip_says_how_to_run_the_test() -> None:
    reasons = list(skip_reasons())
    assert len(reasons) > 20
    for file, line, reason in reasons:
        if reason == "POSTGRES_SKIP" or any(c in reason for c in CANNOT_BE_ENABLED):
            continue
        assert any(h in reason for h in HOW_TO_ENABLE), f"{file}:{line}: {reason or 'no reason'}"
    from conftest import POSTGRES_SKIP

    assert POSTGRES_SKIP.startswith("GHOSTDB_TEST_POSTGRES_URL is not set")  # .ci/run's grep
    assert "postgresql+psycopg://" in POSTGRES_SKIP and "[dev,postgres]" in POSTGRES_SKIP


# -- the served API's forms offer the names the store holds --------------------------------


def test_the_served_api_docs_offer_the_names_the_store_holds(five: Path, tmp_path: Path) -> None:
    """The /docs page's forms send a path's example when its field is left empty: over a
    store without enable1 they named enable1 and answered 404."""
    from conftest import write_list
    from fastapi.testclient import TestClient

    from ghostdb.web import create_app

    with open_store(five) as store:
        store.ingest(write_list(tmp_path, "ghost green tan", "three"))
        store.solve("three")
        store.solve("chopsticks")
    with open_store(five) as store, TestClient(create_app(store)) as client:
        spec = client.get("/openapi.json").json()
        position = spec["paths"]["/api/{name}/position"]["get"]["parameters"]
        name = next(p for p in position if p["name"] == "name")
        assert name["schema"]["examples"] == ["five", "three", "chopsticks"]
        pool = spec["paths"]["/api/{name}/decisive"]["get"]["parameters"]
        assert next(p for p in pool if p["name"] == "pool")["schema"]["examples"] == ["three"]
        first = name["schema"]["examples"][0]
        assert client.get(f"/api/{first}/position").status_code == 200  # the form's request
    served = json.dumps(spec)
    assert "enable1" not in served and "twl06" not in served
