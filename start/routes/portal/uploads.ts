import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import type { PrincipalKind } from '#auth/principal'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/**
 * Uploads (CSV, JSON Lines), in the operator's portal (every publisher's) and
 * a publisher's (its own): the same pages; UploadService decides what each sees.
 */
for (const role of ['operator', 'publisher'] satisfies PrincipalKind[]) {
  router
    .group(() => {
      router.get('uploads', [controllers.portal.Uploads, 'index']).as('index')
      router.post('uploads', [controllers.portal.Uploads, 'store']).as('store')
      router.get('uploads/:id', [controllers.portal.Uploads, 'show']).where('id', uuid).as('show')
      router
        .get('uploads/:id/report', [controllers.portal.Uploads, 'report'])
        .where('id', uuid)
        .as('report')
      router
        .post('uploads/:id/accept', [controllers.portal.Uploads, 'accept'])
        .where('id', uuid)
        .as('accept')
    })
    .prefix(`/${role}`)
    .as(`${role}.uploads`)
    .use(portalStack(role))
}
