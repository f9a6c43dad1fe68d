import { configApp } from '@adonisjs/eslint-config'
import { vue } from '@adonisjs/eslint-config/vue'

export default configApp(
  // Vite's output when the app is built in place (`npm run build`), and the benchmarks' copies of
  // the build (tmp/bench/build-<pid>): not source.
  { ignores: ['public/assets/**', 'tmp/**'] },
  ...vue,
  {
    name: 'Leadgate: the Inertia entry',
    files: ['inertia/app.ts'],
    // The app mounts with a render function, as the AdonisJS starter kit does; pages use script setup.
    rules: { 'vue/component-api-style': 'off' },
  },
  {
    name: 'Leadgate: what the portal shares with the server',
    files: ['inertia/**/*.ts', 'inertia/**/*.vue'],
    rules: {
      // One rule for a label's colour, worn alike by the pages and the branded e-mails: a pure
      // module (colord only), nothing of the server comes with it.
      '@adonisjs/no-backend-import-in-frontend': [
        'error',
        { allowed: ['../../app/services/catalogue/brand_color'] },
      ],
      // Page props carry the API's JSON as it is (next_cursor, may_review): one vocabulary.
      'vue/prop-name-casing': 'off',
    },
  },
  {
    name: 'Leadgate: portal links',
    files: ['inertia/**/*.vue'],
    // Routes have no names for the typed client yet; links name their paths until the portal shell gets one.
    rules: { '@adonisjs/prefer-adonisjs-inertia-link': 'off' },
  },
  {
    name: 'Leadgate: writes confirm their commit',
    files: ['app/**/*.ts', 'bench/**/*.ts', 'commands/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'db',
          property: 'transaction',
          message:
            'Use transaction() from #services/sql/transaction: it fails when the COMMIT was not confirmed.',
        },
      ],
    },
  },
  {
    name: 'Leadgate: the engine never reads the HTTP context',
    files: ['app/services/**/*.ts'],
    // A service takes a Principal and plain input (docs/architecture.md); the edge reads the request.
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@adonisjs/core/http',
              message:
                'Services never read the HTTP context: take a Principal and plain input from the controller.',
            },
          ],
        },
      ],
    },
  },
  {
    name: 'Leadgate: tests',
    files: ['tests/**/*.ts'],
    // An assertion's subject is often one field of an answer: `(await client.get(url)).body()`.
    rules: { '@unicorn/no-await-expression-member': 'off' },
  }
)
