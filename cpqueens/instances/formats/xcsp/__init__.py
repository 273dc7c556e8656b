"""XCSP3 instance files: written in the form ACE reads, and read by understanding each
constraint, whatever the tool that wrote it.

Map: ``document`` (the file written and read: the document's parts, each constraint
recognised), ``expressions`` (XCSP3's functional expressions as linear forms over the
rows), ``rules`` (the rules of n-queens recognised in those constraints), ``elements``
(the variables, lists and tables below the constraints, each element checked).
"""
