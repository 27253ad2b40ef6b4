import ObscuraCLI

ObscuraCommand.main()
