"""What a person reads: timing runs and their plots, HTML and Markdown reports,
text tables and SVG boards.
"""
