// `node --import ./test/helpers/record-imports.mjs …` appends every module URL the process's ES
// module loader resolves, one a line, to the file named by DT_RECORD_IMPORTS (plain JavaScript: the
// compiled product runs without tsx). Packages a CommonJS package require()s are not seen; the
// packages our own code imports are.
import { register } from 'node:module';

register(new URL('./record-imports-hooks.mjs', import.meta.url));
