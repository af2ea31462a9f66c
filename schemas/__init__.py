"""JSON Schemas (draft 2020-12) for note frontmatter and index entries."""
