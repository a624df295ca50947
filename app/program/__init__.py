"""The program: built-in examples, deep links, the editor bar (Run, Share, exports) and the console."""
