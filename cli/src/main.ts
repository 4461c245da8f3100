#!/usr/bin/env node
/**
 * The `atrium` command. Everything is in program.ts; this file only runs it.
 */
import { runCli } from "./program.ts";

process.exitCode = await runCli(process.argv);
