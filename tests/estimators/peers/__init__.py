"""Tests of ``budgetboost.estimators.peers``: both peers in one suite, each library's own."""
