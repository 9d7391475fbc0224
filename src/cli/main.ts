#!/usr/bin/env node
/** The `ideact` command; subcommands are added by the CLI layer. */
process.stdout.write('ideact — commands: codegen, run, inspect, validate (see --help)\n');
