"""The explicit decision tree as a networkx graph: building it, estimating its size first,
writing and reading it (GraphML, GEXF, JSON, DOT) and drawing it.
"""
