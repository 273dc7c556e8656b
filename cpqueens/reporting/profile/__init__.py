"""``cpqueens profile``: where a search spends its effort, depth by depth.

Map: ``profiles`` (a search profile: nodes, dead ends and solutions per depth, from a
compact tree), ``tables`` (its text), ``plot`` (its picture).
"""
