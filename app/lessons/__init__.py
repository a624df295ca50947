"""Lessons: a Markdown file or a Jupyter notebook, its prose beside the graph and its code blocks run in order as
one program (docs/lessons.md). The model (model.py, notebook.py, program.py, questions.py) and the run
(run.py) are pure Python: no Panel."""
