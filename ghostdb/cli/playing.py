"""`ghostdb play` and `selfplay`: games against the stored solution.

Their ``--seats`` lists the seats; more than two of them choose the rule option
``players`` (Ghost for that many), which these commands therefore set themselves.
``--players`` is that count, as in every other command; given a list, it is the older
spelling of ``--seats``, kept for the commands written before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ghostdb.cli.group import app, emit, fail, keep_common_words, store_for
from ghostdb.cli.options import DbOption, Json, Name, RuleOptions, rules_of, with_rule_options
from ghostdb.play.seats import computer_seats

if TYPE_CHECKING:
    from ghostdb.games.base import RuleSet

Players = Annotated[
    str | None,
    typer.Option(
        metavar="N",
        help="Ghost: seats, moving in turn, as in solve [default: 2, or as many as --seats "
        "names]. A list is the older spelling of --seats.",
        show_default=False,
    ),
]
"""`play`'s and `selfplay`'s --players: the count every command takes (the rule option),
and, given a list, the older spelling of --seats."""


@app.command()
@with_rule_options
def play(
    name: Name,
    *,
    rule_options: RuleOptions,
    seats: Annotated[
        str | None,
        typer.Option(
            metavar="LIST",
            help="One per seat, in turn order: human, computer (= optimal), "
            f"{computer_seats()} [default: human,computer; with --players N, human and "
            "N-1 rational].",
            show_default=False,
        ),
    ] = None,
    players: Players = None,
    seed: Annotated[int | None, typer.Option(help="Make every computer choice repeatable.")] = None,
    moves: Annotated[
        str | None,
        typer.Option(
            help="Replay these moves, as `play` prints them ('t r e'; commas also "
            "separate), and show the reply; no prompts."
        ),
    ] = None,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Play: humans at the keyboard against computer players that read the stored
    solution (one query per move).  With more than two seats, Ghost is played under the
    rules for that many players."""
    from ghostdb.text.common import to_json
    from ghostdb.text.matches import replay

    seated, chosen = _seats_and_rules(name, _seat_list(seats, players, PLAY), rule_options)
    keep_common_words(db, name, chosen, seated)
    with store_for(db) as store:
        game = store.solution(name, chosen).new_game(seated, seed)
        if moves is None:
            if json:
                fail("--json is for scripts: give the moves with --moves")
            from ghostdb.cli import console

            console.run(game)
            return
        from ghostdb.play.engine import split_moves

        for text in split_moves(moves):
            if game.result is not None:
                fail(f"the game ended at {game.result.fragment!r} before the move {text!r}")
            game.play(text)
        before = game.position
        data = game.as_dict()  # before the reply
        reply = None
        if game.result is None and game.seat() != "human":
            reply = game.computer_move()
    if json:
        data["position"] = None if game.history and before.is_word else before.as_dict()
        data["reply"] = (
            None if reply is None else {**reply.__dict__, "strategy": game.seat(reply.player)}
        )
        data["result"] = None if game.result is None else game.result.as_dict()
        emit(to_json(data))
    else:
        emit(replay(game, before, reply))


@app.command()
@with_rule_options
def puzzle(
    name: Name,
    *,
    rule_options: RuleOptions,
    difficulty: Annotated[
        str | None,
        typer.Option(help="easy (a win in 3 moves at most), medium or hard [default: any]."),
    ] = None,
    seed: Annotated[int | None, typer.Option(help="The same puzzle again.")] = None,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """A puzzle: a position where exactly one move wins.  Type it; you are told whether
    it wins and how the game ends.  With --json, the puzzle and its answer, no prompt."""
    from ghostdb.text.common import to_json

    chosen = rules_of(name, rule_options)
    with store_for(db) as store:
        solution = store.solution(name, chosen)
        found = solution.puzzle(difficulty, seed)
        if json:
            emit(to_json(found))
            return
        _solve_puzzle(solution, found)


def _others(n: int) -> str:
    return "the other does not" if n == 1 else f"the {n} others do not"


def _solve_puzzle(solution: Any, found: dict[str, Any]) -> None:
    """Ask for the move until one is typed (end of input shows the answer)."""
    import sys

    from ghostdb.errors import BadMove
    from ghostdb.store.answers.puzzles import line_end

    game = solution.game
    who = "the player to move" if found["to_move"] is None else f"player {found['to_move']}"
    emit(
        f"{solution.name}, {solution.rules.describe()}: {found['difficulty']} puzzle "
        f"(one of {found['kept']:,})\n{found['label']}  —  {who} to move: exactly one move "
        f"wins; {_others(found['other_moves'])} (? lists the moves)"
    )
    pos = solution.lookup(found["position"])
    ends = f" (the game ends on {found['word']!r})" if found["word"] else ""
    while True:
        typer.echo("your move> ", nl=False)
        line = sys.stdin.readline()
        if not line:
            emit(f"\nthe winning move: {found['answer']}{ends}")
            return
        if not sys.stdin.isatty():
            typer.echo(line.strip())  # a pipe: the transcript shows what was read
        if line.strip() == "?":  # the candidates, without their values: those are the puzzle
            emit(f"the moves: {' '.join(p.move for p in pos.plays)}")
            continue
        try:
            _, child = game.parse_move(pos.fragment, line)
        except BadMove as exc:
            emit(f"{exc}; ? lists the moves")
            continue
        play = next((p for p in pos.plays if p.fragment == child), None)
        if play is not None and play.move == found["answer"]:
            emit(f"right: {play.move} wins{ends}")
            return
        word = None if play is None else line_end(solution, play)
        to = f" to {word!r}" if word and game.word_game else ""
        move = line.strip() if play is None else play.move
        verb = (
            "loses"
            if play is None
            else {"tie": "ties", "draw": "draws"}.get(play.category, "loses")
        )
        emit(f"no: {move} {verb}{to}; the winning move was {found['answer']}{ends}")
        return


@app.command()
@with_rule_options
def analyse(
    name: Name,
    moves: Annotated[
        list[str],
        typer.Argument(
            metavar="MOVES...",
            help="The game's moves as `play` prints them (a Ghost game as its letters, "
            "t r e w s, or its fragments, t tr tre; commas also separate).",
        ),
    ],
    *,
    rule_options: RuleOptions,
    start: Annotated[str, typer.Option("--from", help="The position the game started from.")] = "",
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Analyse a played game: every move with its value before and after for its mover,
    the best moves instead and a verdict (best, good, mistake, blunder), each player's
    accuracy and the move that decided the game."""
    from ghostdb.text.analysis import analysis
    from ghostdb.text.common import to_json

    chosen = rules_of(name, rule_options)
    from ghostdb.play.engine import split_moves

    typed = [m for text in moves for m in split_moves(text)]
    with store_for(db) as store:
        found = store.solution(name, chosen).analyse(typed, start)
    emit(to_json(found.as_dict()) if json else analysis(found))


@app.command()
@with_rule_options
def selfplay(
    name: Name,
    *,
    rule_options: RuleOptions,
    seats: Annotated[
        str | None,
        typer.Option(
            metavar="LIST",
            help=f"Computer players, one per seat: {computer_seats()} [default: "
            "optimal,optimal; with --players N, N rational].",
            show_default=False,
        ),
    ] = None,
    players: Players = None,
    games: Annotated[int, typer.Option(min=1, help="How many games.")] = 100,
    seed: Annotated[int | None, typer.Option(help="Make the games repeatable.")] = None,
    json: Json = False,
    db: DbOption = None,
) -> None:
    """Computer against computer: who won, and the positions the games ended on."""
    from ghostdb.text import matches
    from ghostdb.text.common import to_json

    seated, chosen = _seats_and_rules(name, _seat_list(seats, players, SELFPLAY), rule_options)
    keep_common_words(db, name, chosen, seated)
    with store_for(db) as store:
        report = store.solution(name, chosen).selfplay(seated, games, seed)
    emit(to_json(report.as_dict()) if json else matches.selfplay(report))


def _seat_list(seats: str | None, players: str | None, defaults: tuple[str, str, str]) -> str:
    """The seats to play: ``--seats``; or ``--players`` in its older spelling, a list; or,
    with ``--players N``, N seats of the command's kinds (``defaults``: its two seats, then
    the first seat and the filler of a game of more players, for whom `optimal` cannot
    play); one line when the two disagree."""
    if players is not None and not players.strip().isdigit():  # the older spelling: a list
        if seats is not None:
            fail(f"--players {players} is the older spelling of --seats: give --seats only")
        return players
    if players is None:
        return seats or defaults[0]
    count = int(players)
    if seats is None:
        return defaults[0] if count == 2 else ",".join([defaults[1]] + [defaults[2]] * (count - 1))
    if len(seats.split(",")) != count:
        fail(
            f"--players {count} but --seats names {len(seats.split(','))} seats: "
            "give one of them, or both agreeing"
        )
    return seats


PLAY = ("human,computer", "human", "rational")
SELFPLAY = ("optimal,optimal", "rational", "rational")


def _seats_and_rules(
    name: str, players: str, options: RuleOptions
) -> tuple[tuple[str, ...], RuleSet]:
    """The seats ``players`` lists, checked before any solution is opened (a seat list
    that cannot play says so, not that its rules are unsolved), and the rule set."""
    from ghostdb.play.engine import parse_players

    seats = parse_players(players)
    chosen = rules_of(name, {**options, "players": len(seats) if len(seats) > 2 else None})
    return seats, chosen
