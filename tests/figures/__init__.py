"""Tests of ``budgetboost.figures``: a file per module (``test_<module>.py``)."""
