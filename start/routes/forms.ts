import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import { middleware } from '#start/kernel'

const uuid = router.matchers.uuid()
const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** The "Forms" section of the API: the definitions publishers and the operator manage. */
router
  .group(() => {
    router.post('forms', [controllers.Forms, 'store']).as('forms.store')
    router.get('forms', [controllers.Forms, 'index']).as('forms.index')
    router.get('forms/:id', [controllers.Forms, 'show']).where('id', uuid).as('forms.show')
    router.patch('forms/:id', [controllers.Forms, 'update']).where('id', uuid).as('forms.update')
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
    router.get(':slug', [controllers.HostedForms, 'show']).as('show')
    router.post(':slug', [controllers.HostedForms, 'store']).as('store')
    router.post(':slug/start', [controllers.HostedForms, 'start']).as('start')
    router.get(':slug/thanks', [controllers.HostedForms, 'thanks']).as('thanks')
  })
  .prefix('/f')
  .where('slug', slug)
  .as('hosted_forms')
