"""Game analysis: how many expected points each decision of a finished game gave away,
judged from the deciding seat's view at that moment only (never the hidden cards).

`values.move_values` evaluates moves of one view; `review` walks a finished game's log and
summarises each seat's decisions.
"""
