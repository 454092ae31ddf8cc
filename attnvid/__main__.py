from scenes.cli import main

main()
