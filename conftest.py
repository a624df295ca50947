# Puts the project root on sys.path so `import engine` works in every test environment.
