"""``cpqueens report``: one page gathering a cross-check, a bench, profiles and a
campaign, as HTML or Markdown.

Map: ``data`` (the report gathered as data), ``rendering`` (the page rendered from
it), ``markup`` (its HTML and Markdown pieces, foreign text shown as written),
``machine`` (the machine it ran on, the solver programs found here among it).
"""
