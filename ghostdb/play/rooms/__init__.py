"""Rooms: matches that several people play together, refereed and graded by the store.

Pure, as the rest of `ghostdb.play`: the store, the web server and the command line hand
in what they hold.

* `state`: a room's state, folded from its events (the list of events is there).
* `referee`: what a player's message makes happen, as events, or why not (the rules).
* `judge`: what the referee, the verdicts and the seats ask of the stored solution.
* `verdicts`: each finished round graded by the stored values.
* `bots`: the computer seats, which challenge, answer and bluff as the manual says.
"""
