#!/usr/bin/env node
/** The `ideact` command (bin → dist/cli/main.js); see docs/cli.md. Only commander loads up front. */
import { processIo } from './cli-io';
import { runCli } from './program';

void runCli(process.argv.slice(2), processIo()).then((exitCode) => {
  process.exitCode = exitCode;
});
