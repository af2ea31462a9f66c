"""Merging memory: three-way merge of one index (:mod:`mmlint.merging.index`,
the git merge driver) and whole stores of one dialect
(:mod:`mmlint.merging.stores`)."""
