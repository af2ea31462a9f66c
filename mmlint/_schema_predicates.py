"""The compiled predicate of each bundled schema (:func:`mmlint.validate.predicate`).

Generated from ``schemas/*.json`` by :func:`mmlint.validate.predicates_module`: do not
edit; ``tests/test_validate_fast.py`` regenerates it and requires the same text.
"""

import re


def _config(_is_date, _equal, _MISSING):
    """The predicate of schema ``config``."""
    _c1 = frozenset(['caps', 'dialect', 'extend', 'hygiene', 'ignore', 'jobs', 'per-path-ignores', 'profile', 'select', 'severity'])
    _c9 = frozenset([])
    _c13 = frozenset([])
    _c15 = frozenset(['error', 'info', 'warning'])
    _c19 = frozenset(['detail_bytes', 'entry_bytes', 'entry_chars', 'index_bytes', 'index_lines', 'index_soft_bytes', 'index_soft_lines', 'load_bytes', 'load_lines', 'note_bytes', 'notes', 'recall_bytes', 'recall_lines', 'write_budget'])
    _c21 = 1
    _c23 = 1
    _c25 = 0
    _c27 = 0
    _c29 = 1
    _c31 = 1
    _c33 = 1
    _c35 = 1
    _c37 = 1
    _c39 = 1
    _c41 = 1
    _c43 = 1
    _c45 = 1
    _c47 = 1
    _c49 = 0
    _c50 = 'auto'
    _c52 = frozenset(['drift-threshold', 'duplicate-threshold', 'personal-data', 'stale-days'])
    _c54 = 0
    _c55 = 1
    _c57 = 0
    _c58 = 1
    _c60 = 0
    _c63 = frozenset(['email', 'national-id', 'phone'])
    def _pred(v):
        return bool((isinstance(v, dict) and (not isinstance(v, dict) or _c1.issuperset(v)) and (not isinstance(v, dict) or (((_v2 := v.get('extend', _MISSING)) is _MISSING or (isinstance(_v2, str) and (not isinstance(_v2, str) or len(_v2) >= 1))) and ((_v3 := v.get('select', _MISSING)) is _MISSING or (isinstance(_v3, list) and (not isinstance(_v3, list) or all((isinstance(_v4, str) and (not isinstance(_v4, str) or len(_v4) >= 1)) for _v4 in _v3)))) and ((_v5 := v.get('ignore', _MISSING)) is _MISSING or (isinstance(_v5, list) and (not isinstance(_v5, list) or all((isinstance(_v6, str) and (not isinstance(_v6, str) or len(_v6) >= 1)) for _v6 in _v5)))) and ((_v7 := v.get('per-path-ignores', _MISSING)) is _MISSING or (isinstance(_v7, dict) and (not isinstance(_v7, dict) or all((not isinstance(_v8, str) or len(_v8) >= 1) for _v8 in _v7)) and (not isinstance(_v7, dict) or all((isinstance(_v10, list) and (not isinstance(_v10, list) or all((isinstance(_v11, str) and (not isinstance(_v11, str) or len(_v11) >= 1)) for _v11 in _v10))) for k, _v10 in _v7.items() if k not in _c9)))) and ((_v12 := v.get('severity', _MISSING)) is _MISSING or (isinstance(_v12, dict) and (not isinstance(_v12, dict) or all((type(_v14) is str and _v14 in _c15) for k, _v14 in _v12.items() if k not in _c13)))) and ((_v16 := v.get('dialect', _MISSING)) is _MISSING or (isinstance(_v16, str) and (not isinstance(_v16, str) or len(_v16) >= 1))) and ((_v17 := v.get('profile', _MISSING)) is _MISSING or (isinstance(_v17, str) and (not isinstance(_v17, str) or len(_v17) >= 1))) and ((_v18 := v.get('caps', _MISSING)) is _MISSING or (isinstance(_v18, dict) and (not isinstance(_v18, dict) or _c19.issuperset(_v18)) and (not isinstance(_v18, dict) or (((_v20 := _v18.get('index_lines', _MISSING)) is _MISSING or ((type(_v20) is int or (type(_v20) is float and _v20.is_integer())) and (_v20 >= _c21 if type(_v20) in (int, float) else _v20 is None or isinstance(_v20, (bool, str, list, dict))))) and ((_v22 := _v18.get('index_bytes', _MISSING)) is _MISSING or ((type(_v22) is int or (type(_v22) is float and _v22.is_integer())) and (_v22 >= _c23 if type(_v22) in (int, float) else _v22 is None or isinstance(_v22, (bool, str, list, dict))))) and ((_v24 := _v18.get('index_soft_lines', _MISSING)) is _MISSING or ((type(_v24) is int or (type(_v24) is float and _v24.is_integer())) and (_v24 >= _c25 if type(_v24) in (int, float) else _v24 is None or isinstance(_v24, (bool, str, list, dict))))) and ((_v26 := _v18.get('index_soft_bytes', _MISSING)) is _MISSING or ((type(_v26) is int or (type(_v26) is float and _v26.is_integer())) and (_v26 >= _c27 if type(_v26) in (int, float) else _v26 is None or isinstance(_v26, (bool, str, list, dict))))) and ((_v28 := _v18.get('load_lines', _MISSING)) is _MISSING or ((type(_v28) is int or (type(_v28) is float and _v28.is_integer())) and (_v28 >= _c29 if type(_v28) in (int, float) else _v28 is None or isinstance(_v28, (bool, str, list, dict))))) and ((_v30 := _v18.get('load_bytes', _MISSING)) is _MISSING or ((type(_v30) is int or (type(_v30) is float and _v30.is_integer())) and (_v30 >= _c31 if type(_v30) in (int, float) else _v30 is None or isinstance(_v30, (bool, str, list, dict))))) and ((_v32 := _v18.get('note_bytes', _MISSING)) is _MISSING or ((type(_v32) is int or (type(_v32) is float and _v32.is_integer())) and (_v32 >= _c33 if type(_v32) in (int, float) else _v32 is None or isinstance(_v32, (bool, str, list, dict))))) and ((_v34 := _v18.get('notes', _MISSING)) is _MISSING or ((type(_v34) is int or (type(_v34) is float and _v34.is_integer())) and (_v34 >= _c35 if type(_v34) in (int, float) else _v34 is None or isinstance(_v34, (bool, str, list, dict))))) and ((_v36 := _v18.get('detail_bytes', _MISSING)) is _MISSING or ((type(_v36) is int or (type(_v36) is float and _v36.is_integer())) and (_v36 >= _c37 if type(_v36) in (int, float) else _v36 is None or isinstance(_v36, (bool, str, list, dict))))) and ((_v38 := _v18.get('write_budget', _MISSING)) is _MISSING or ((type(_v38) is int or (type(_v38) is float and _v38.is_integer())) and (_v38 >= _c39 if type(_v38) in (int, float) else _v38 is None or isinstance(_v38, (bool, str, list, dict))))) and ((_v40 := _v18.get('entry_chars', _MISSING)) is _MISSING or ((type(_v40) is int or (type(_v40) is float and _v40.is_integer())) and (_v40 >= _c41 if type(_v40) in (int, float) else _v40 is None or isinstance(_v40, (bool, str, list, dict))))) and ((_v42 := _v18.get('recall_lines', _MISSING)) is _MISSING or ((type(_v42) is int or (type(_v42) is float and _v42.is_integer())) and (_v42 >= _c43 if type(_v42) in (int, float) else _v42 is None or isinstance(_v42, (bool, str, list, dict))))) and ((_v44 := _v18.get('recall_bytes', _MISSING)) is _MISSING or ((type(_v44) is int or (type(_v44) is float and _v44.is_integer())) and (_v44 >= _c45 if type(_v44) in (int, float) else _v44 is None or isinstance(_v44, (bool, str, list, dict))))) and ((_v46 := _v18.get('entry_bytes', _MISSING)) is _MISSING or ((type(_v46) is int or (type(_v46) is float and _v46.is_integer())) and (_v46 >= _c47 if type(_v46) in (int, float) else _v46 is None or isinstance(_v46, (bool, str, list, dict))))))))) and ((_v48 := v.get('jobs', _MISSING)) is _MISSING or (((type(_v48) is int or (type(_v48) is float and _v48.is_integer())) and (_v48 >= _c49 if type(_v48) in (int, float) else _v48 is None or isinstance(_v48, (bool, str, list, dict)))) or _equal(_v48, _c50))) and ((_v51 := v.get('hygiene', _MISSING)) is _MISSING or (isinstance(_v51, dict) and (not isinstance(_v51, dict) or _c52.issuperset(_v51)) and (not isinstance(_v51, dict) or (((_v53 := _v51.get('duplicate-threshold', _MISSING)) is _MISSING or (type(_v53) in (int, float) and (_v53 > _c54 if type(_v53) in (int, float) else _v53 is None or isinstance(_v53, (bool, str, list, dict))) and (_v53 <= _c55 if type(_v53) in (int, float) else _v53 is None or isinstance(_v53, (bool, str, list, dict))))) and ((_v56 := _v51.get('drift-threshold', _MISSING)) is _MISSING or (type(_v56) in (int, float) and (_v56 >= _c57 if type(_v56) in (int, float) else _v56 is None or isinstance(_v56, (bool, str, list, dict))) and (_v56 <= _c58 if type(_v56) in (int, float) else _v56 is None or isinstance(_v56, (bool, str, list, dict))))) and ((_v59 := _v51.get('stale-days', _MISSING)) is _MISSING or ((type(_v59) is int or (type(_v59) is float and _v59.is_integer())) and (_v59 >= _c60 if type(_v59) in (int, float) else _v59 is None or isinstance(_v59, (bool, str, list, dict))))) and ((_v61 := _v51.get('personal-data', _MISSING)) is _MISSING or (isinstance(_v61, list) and (not isinstance(_v61, list) or (all(type(x) is str for x in _v61) and len(set(_v61)) == len(_v61))) and (not isinstance(_v61, list) or all((type(_v62) is str and _v62 in _c63) for _v62 in _v61))))))))))))

    return _pred


def _engramory_claude_code_note(_is_date, _equal, _MISSING):
    """The predicate of schema ``engramory-claude-code.note``."""
    _c2 = re.compile('\\S')
    _c4 = re.compile('\\S')
    _c6 = frozenset(['feedback', 'project', 'reference', 'user'])
    _c9 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$')
    _c11 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?)?$')
    def _pred(v):
        return bool((isinstance(v, dict) and (not isinstance(v, dict) or ('name' in v and 'description' in v and 'type' in v)) and (not isinstance(v, dict) or (((_v1 := v.get('name', _MISSING)) is _MISSING or (isinstance(_v1, str) and (not isinstance(_v1, str) or _c2.search(_v1) is not None))) and ((_v3 := v.get('description', _MISSING)) is _MISSING or (isinstance(_v3, str) and (not isinstance(_v3, str) or _c4.search(_v3) is not None))) and ((_v5 := v.get('type', _MISSING)) is _MISSING or (type(_v5) is str and _v5 in _c6)) and ((_v7 := v.get('scope', _MISSING)) is _MISSING or isinstance(_v7, str)) and ((_v8 := v.get('created', _MISSING)) is _MISSING or (isinstance(_v8, str) and (not isinstance(_v8, str) or _c9.search(_v8) is not None))) and ((_v10 := v.get('updated', _MISSING)) is _MISSING or (isinstance(_v10, str) and (not isinstance(_v10, str) or _c11.search(_v10) is not None))) and ((_v12 := v.get('tags', _MISSING)) is _MISSING or (isinstance(_v12, str) or (isinstance(_v12, list) and (not isinstance(_v12, list) or all(isinstance(_v13, str) for _v13 in _v12))))) and ((_v14 := v.get('aliases', _MISSING)) is _MISSING or (isinstance(_v14, list) and (not isinstance(_v14, list) or all(isinstance(_v15, str) for _v15 in _v14)))) and ((_v16 := v.get('confidence', _MISSING)) is _MISSING or isinstance(_v16, str))))))

    return _pred


def _engramory_recall_v1_note(_is_date, _equal, _MISSING):
    """The predicate of schema ``engramory-recall-v1.note``."""
    _c2 = re.compile('\\S')
    _c4 = re.compile('\\S')
    _c6 = frozenset(['feedback', 'project', 'reference', 'user'])
    _c9 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
    _c11 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
    _c15 = frozenset(['中', '低', '高'])
    def _pred(v):
        return bool((isinstance(v, dict) and (not isinstance(v, dict) or ('name' in v and 'description' in v and 'type' in v)) and (not isinstance(v, dict) or (((_v1 := v.get('name', _MISSING)) is _MISSING or (isinstance(_v1, str) and (not isinstance(_v1, str) or _c2.search(_v1) is not None))) and ((_v3 := v.get('description', _MISSING)) is _MISSING or (isinstance(_v3, str) and (not isinstance(_v3, str) or _c4.search(_v3) is not None))) and ((_v5 := v.get('type', _MISSING)) is _MISSING or (type(_v5) is str and _v5 in _c6)) and ((_v7 := v.get('scope', _MISSING)) is _MISSING or isinstance(_v7, str)) and ((_v8 := v.get('created', _MISSING)) is _MISSING or (isinstance(_v8, str) and (not isinstance(_v8, str) or _c9.search(_v8) is not None) and _is_date(_v8))) and ((_v10 := v.get('updated', _MISSING)) is _MISSING or (isinstance(_v10, str) and (not isinstance(_v10, str) or _c11.search(_v10) is not None) and _is_date(_v10))) and ((_v12 := v.get('aliases', _MISSING)) is _MISSING or (isinstance(_v12, list) and (not isinstance(_v12, list) or all(isinstance(_v13, str) for _v13 in _v12)))) and ((_v14 := v.get('confidence', _MISSING)) is _MISSING or (type(_v14) is str and _v14 in _c15)) and ((_v16 := v.get('tags', _MISSING)) is _MISSING or (isinstance(_v16, str) or (isinstance(_v16, list) and (not isinstance(_v16, list) or all(isinstance(_v17, str) for _v17 in _v16)))))))))

    return _pred


def _engramory_upstream_note(_is_date, _equal, _MISSING):
    """The predicate of schema ``engramory-upstream.note``."""
    _c2 = re.compile('\\S')
    _c4 = re.compile('\\S')
    _c6 = frozenset(['feedback', 'project', 'reference', 'user'])
    _c8 = frozenset(['global', 'repo'])
    _c10 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
    _c12 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
    def _pred(v):
        return bool((isinstance(v, dict) and (not isinstance(v, dict) or ('name' in v and 'description' in v and 'type' in v and 'created' in v and 'updated' in v)) and (not isinstance(v, dict) or (((_v1 := v.get('name', _MISSING)) is _MISSING or (isinstance(_v1, str) and (not isinstance(_v1, str) or _c2.search(_v1) is not None))) and ((_v3 := v.get('description', _MISSING)) is _MISSING or (isinstance(_v3, str) and (not isinstance(_v3, str) or _c4.search(_v3) is not None))) and ((_v5 := v.get('type', _MISSING)) is _MISSING or (type(_v5) is str and _v5 in _c6)) and ((_v7 := v.get('scope', _MISSING)) is _MISSING or (type(_v7) is str and _v7 in _c8)) and ((_v9 := v.get('created', _MISSING)) is _MISSING or (isinstance(_v9, str) and (not isinstance(_v9, str) or _c10.search(_v9) is not None) and _is_date(_v9))) and ((_v11 := v.get('updated', _MISSING)) is _MISSING or (isinstance(_v11, str) and (not isinstance(_v11, str) or _c12.search(_v11) is not None) and _is_date(_v11))) and ((_v13 := v.get('tags', _MISSING)) is _MISSING or (isinstance(_v13, str) or (isinstance(_v13, list) and (not isinstance(_v13, list) or all(isinstance(_v14, str) for _v14 in _v13)))))))))

    return _pred


def _mm_entry(_is_date, _equal, _MISSING):
    """The predicate of schema ``mm.entry``."""
    _c2 = re.compile('^[A-Za-z0-9][A-Za-z0-9._-]*$')
    _c8 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$')
    _c10 = re.compile('^[0-9]+/[0-9]+$')
    def _pred(v):
        return bool((isinstance(v, dict) and (not isinstance(v, dict) or ('topic' in v and 'file' in v)) and (not isinstance(v, dict) or (((_v1 := v.get('topic', _MISSING)) is _MISSING or (isinstance(_v1, str) and (not isinstance(_v1, str) or _c2.search(_v1) is not None) and (not isinstance(_v1, str) or len(_v1) <= 64))) and ((_v3 := v.get('summary', _MISSING)) is _MISSING or isinstance(_v3, str)) and ((_v4 := v.get('tags', _MISSING)) is _MISSING or (isinstance(_v4, list) and (not isinstance(_v4, list) or all(isinstance(_v5, str) for _v5 in _v4)))) and ((_v6 := v.get('file', _MISSING)) is _MISSING or (isinstance(_v6, str) and (not isinstance(_v6, str) or len(_v6) >= 1))) and ((_v7 := v.get('updated', _MISSING)) is _MISSING or (isinstance(_v7, str) and (not isinstance(_v7, str) or _c8.search(_v7) is not None))) and ((_v9 := v.get('budget', _MISSING)) is _MISSING or (isinstance(_v9, str) and (not isinstance(_v9, str) or _c10.search(_v9) is not None)))))))

    return _pred


def _model_note(_is_date, _equal, _MISSING):
    """The predicate of schema ``model.note``."""
    _c23 = frozenset(['aliases', 'body', 'budget', 'category', 'confidence', 'created', 'entry_body', 'extra', 'index_hook', 'index_section', 'name', 'path', 'scope', 'slug', 'summary', 'tags', 'title', 'type', 'updated'])
    def _pred(v):
        return bool((isinstance(v, dict) and (not isinstance(v, dict) or ('path' in v and 'slug' in v and 'body' in v)) and (not isinstance(v, dict) or (((_v1 := v.get('path', _MISSING)) is _MISSING or isinstance(_v1, str)) and ((_v2 := v.get('slug', _MISSING)) is _MISSING or (isinstance(_v2, str) and (not isinstance(_v2, str) or len(_v2) >= 1))) and ((_v3 := v.get('category', _MISSING)) is _MISSING or (isinstance(_v3, list) and (not isinstance(_v3, list) or all(isinstance(_v4, str) for _v4 in _v3)))) and ((_v5 := v.get('name', _MISSING)) is _MISSING or isinstance(_v5, str)) and ((_v6 := v.get('title', _MISSING)) is _MISSING or isinstance(_v6, str)) and ((_v7 := v.get('summary', _MISSING)) is _MISSING or isinstance(_v7, str)) and ((_v8 := v.get('type', _MISSING)) is _MISSING or isinstance(_v8, str)) and ((_v9 := v.get('tags', _MISSING)) is _MISSING or (isinstance(_v9, list) and (not isinstance(_v9, list) or all(isinstance(_v10, str) for _v10 in _v9)))) and ((_v11 := v.get('created', _MISSING)) is _MISSING or isinstance(_v11, str)) and ((_v12 := v.get('updated', _MISSING)) is _MISSING or isinstance(_v12, str)) and ((_v13 := v.get('scope', _MISSING)) is _MISSING or isinstance(_v13, str)) and ((_v14 := v.get('aliases', _MISSING)) is _MISSING or (isinstance(_v14, list) and (not isinstance(_v14, list) or all(isinstance(_v15, str) for _v15 in _v14)))) and ((_v16 := v.get('confidence', _MISSING)) is _MISSING or isinstance(_v16, str)) and ((_v17 := v.get('budget', _MISSING)) is _MISSING or isinstance(_v17, str)) and ((_v18 := v.get('index_hook', _MISSING)) is _MISSING or isinstance(_v18, str)) and ((_v19 := v.get('index_section', _MISSING)) is _MISSING or isinstance(_v19, str)) and ((_v20 := v.get('entry_body', _MISSING)) is _MISSING or isinstance(_v20, str)) and ((_v21 := v.get('extra', _MISSING)) is _MISSING or isinstance(_v21, dict)) and ((_v22 := v.get('body', _MISSING)) is _MISSING or isinstance(_v22, str)))) and (not isinstance(v, dict) or _c23.issuperset(v))))

    return _pred


def _workspace_note(_is_date, _equal, _MISSING):
    """The predicate of schema ``workspace.note``."""
    _c2 = re.compile('\\S')
    _c5 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$')
    _c7 = re.compile('^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})$')
    def _pred(v):
        return bool((isinstance(v, dict) and True and (not isinstance(v, dict) or (((_v1 := v.get('title', _MISSING)) is _MISSING or (isinstance(_v1, str) and (not isinstance(_v1, str) or _c2.search(_v1) is not None))) and ((_v3 := v.get('tags', _MISSING)) is _MISSING or isinstance(_v3, str)) and ((_v4 := v.get('created', _MISSING)) is _MISSING or (isinstance(_v4, str) and (not isinstance(_v4, str) or _c5.search(_v4) is not None))) and ((_v6 := v.get('updated', _MISSING)) is _MISSING or (isinstance(_v6, str) and (not isinstance(_v6, str) or _c7.search(_v6) is not None)))))))

    return _pred


#: Schema name -> its predicate's builder (None: the schema has no predicate).
BUILDERS = {
    'config': _config,
    'engramory-claude-code.note': _engramory_claude_code_note,
    'engramory-recall-v1.note': _engramory_recall_v1_note,
    'engramory-upstream.note': _engramory_upstream_note,
    'mm.entry': _mm_entry,
    'model.note': _model_note,
    'store': None,
    'workspace.note': _workspace_note,
}
