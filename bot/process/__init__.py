"""The running process's machinery: worker processes, one bot per database, health, logs,
figures for /metrics and the progress of long operator commands. Nothing here knows a game,
a match or Discord."""
