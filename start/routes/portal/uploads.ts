import router from '@adonisjs/core/services/router'
import type { PrincipalKind } from '#auth/principal'
import { portalStack } from '#start/routes/portal/stacks'

const UploadsController = () => import('#controllers/portal/uploads_controller')

const uuid = router.matchers.uuid()

/**
 * Uploads (CSV, JSON Lines), in the operator's portal (every publisher's) and
 * a publisher's (its own): the same pages; UploadService decides what each sees.
 */
for (const role of ['operator', 'publisher'] satisfies PrincipalKind[]) {
  router
    .group(() => {
      router.get('uploads', [UploadsController, 'index']).as('index')
      router.post('uploads', [UploadsController, 'store']).as('store')
      router.get('uploads/:id', [UploadsController, 'show']).where('id', uuid).as('show')
      router.get('uploads/:id/report', [UploadsController, 'report']).where('id', uuid).as('report')
      router
        .post('uploads/:id/accept', [UploadsController, 'accept'])
        .where('id', uuid)
        .as('accept')
    })
    .prefix(`/${role}`)
    .as(`${role}.uploads`)
    .use(portalStack(role))
}
