"""Merging memory: three-way merge of one index (:mod:`mmlint.merge.index`,
the git merge driver) and whole stores of one dialect
(:mod:`mmlint.merge.stores`)."""
