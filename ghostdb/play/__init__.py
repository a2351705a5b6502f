"""Playing a stored solution: the match engine, the computer strategies, the console."""
