#!/usr/bin/env node
// Browser tests drive Debian's Chromium (no browser downloads on this kind of machine).
// Installs it through apt-get when it is missing and we run as root; otherwise says what to do.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);
if (typeof process.getuid === 'function' && process.getuid() === 0) {
  console.log(`${CHROMIUM} is missing: installing Debian's chromium package…`);
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', { stdio: 'inherit' });
  if (existsSync(CHROMIUM)) process.exit(0);
}
console.error(`Chromium not found at ${CHROMIUM}. Install it (Debian: sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
process.exit(1);
