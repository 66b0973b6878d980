"""The studies' results as Python data: a table is a dict of columns that pandas reads as a
DataFrame (``Table.to_pandas``), and compare's result a dict that draws the work-precision
diagram (``Comparison.plot``). pandas and matplotlib are optional: ``import energy_audit`` never
needs them, the methods that do say which Debian package provides them."""


def _pandas():
    try:
        import pandas
    except ImportError as error:
        raise ImportError("to_pandas() needs pandas: install the Debian package python3-pandas "
                          "(or pip install pandas)") from error
    return pandas


class Table(dict):
    """A list of records as a dict of columns: ``table[key][i]`` is the i-th record's ``key``
    (NumPy arrays, one entry per record; docs/python.md, the studies)."""

    __slots__ = ()

    def to_pandas(self):
        """The table as a pandas DataFrame, one row per record and a column per key (a column
        of dicts or of tables stays a column of Python objects)."""
        return _pandas().DataFrame(dict(self))


class Comparison(dict):
    """What compare() returns: the keys of the table that ``compare --csv`` writes (``rows``) and
    of the comparison (model, form, planned, threads, ranks, interrupted). ``threshold`` is the
    delta_C that its runs were judged against."""

    def __init__(self, record=(), threshold=1e-3):
        super().__init__(record)
        self.threshold = threshold

    def plot(self, path=None, *, title=None, figsize=(10, 7), dpi=100):
        """The work-precision diagram, as ``compare --plot`` draws it: delta_C against the
        right-hand-side evaluations, log-log, one line per method, the threshold dashed.

        path: the image file to write (PNG, SVG, PDF: by its extension, drawn without a display);
        None: a figure of matplotlib.pyplot, to show. Returns the matplotlib Figure."""
        from .plot import plot_comparison
        return plot_comparison(self, path, title=title, figsize=figsize, dpi=dpi)
