import './css/app.css'
import { createInertiaApp } from '@inertiajs/vue3'
import { createApp, type DefineComponent, h } from 'vue'
import PrimeVue from 'primevue/config'
import ToastService from 'primevue/toastservice'
import ConfirmationService from 'primevue/confirmationservice'
import { resolvePageComponent } from '@adonisjs/inertia/helpers'
import Layout from '~/layouts/default.vue'
import { leadgatePreset } from '~/theme/preset'

createInertiaApp({
  // Pages name themselves with their brand (see components/page_header.vue).
  title: (title) => title || 'Leadgate',
  resolve: (name) => {
    return resolvePageComponent(
      `./pages/${name}.vue`,
      import.meta.glob<DefineComponent>('./pages/**/*.vue'),
      Layout
    )
  },
  setup({ el, App, props, plugin }) {
    createApp({ render: () => h(App, props) })
      .use(plugin)
      .use(PrimeVue, {
        // Light only: the label's colours are checked for contrast against a light page.
        theme: { preset: leadgatePreset, options: { darkModeSelector: false } },
      })
      .use(ToastService)
      .use(ConfirmationService)
      .mount(el)
  },
  progress: { color: '#0f766e' },
})
