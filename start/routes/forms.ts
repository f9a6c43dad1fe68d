import router from '@adonisjs/core/services/router'
import { middleware } from '#start/kernel'

const FormsController = () => import('#controllers/forms_controller')
const HostedFormsController = () => import('#controllers/hosted_forms_controller')

const uuid = router.matchers.uuid()
const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The "Forms" section of the API: the definitions publishers and the operator manage. */
router
  .group(() => {
    router.post('forms', [FormsController, 'store']).as('forms.store')
    router.get('forms', [FormsController, 'index']).as('forms.index')
    router.get('forms/:id', [FormsController, 'show']).where('id', uuid).as('forms.show')
    router.patch('forms/:id', [FormsController, 'update']).where('id', uuid).as('forms.update')
  })
  .prefix('/v1')
  .as('v1')
  .use([middleware.apiKey(), middleware.rateLimit()])

/**
 * The hosted pages consumers fill in: public, no session or CSRF cookie
 * (an embedded frame gets no third-party cookies); the page's sealed token,
 * the honeypot, the fill time and a per-address limit guard them instead.
 */
router
  .group(() => {
    router.get(':slug', [HostedFormsController, 'show']).as('show')
    router.post(':slug', [HostedFormsController, 'store']).as('store')
    router.post(':slug/start', [HostedFormsController, 'start']).as('start')
    router.get(':slug/thanks', [HostedFormsController, 'thanks']).as('thanks')
  })
  .prefix('/f')
  .where('slug', slug)
  .as('hosted_forms')
