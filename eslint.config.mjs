// ESLint (flat config) for the site's scripts and their node tests: `make lint-js`, part of `make test`.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["site/build/**", "build/**", "node_modules/**", ".venv/**", ".venv-lowest/**", ".local/**"] },
  js.configs.recommended,
  {
    // The pages' modules: what the browsers of docs/offline.md run (the build minifies to ES2020).
    files: ["site/static/**/*.js", "site/modules/**/*.js"],
    languageOptions: { ecmaVersion: 2020, sourceType: "module", globals: globals.browser },
  },
  {
    // The service worker: the worker's globals; its one import is replaced by the module's text at build time.
    files: ["site/offline/**/*.js"],
    languageOptions: { ecmaVersion: 2020, sourceType: "module", globals: globals.serviceworker },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: globals.node },
  },
  {
    rules: {
      // A catch that only says why nothing is done keeps its comment; an unused argument may be named.
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
];
