import router from '@adonisjs/core/services/router'
import { controllers } from '#generated/controllers'
import type { PrincipalKind } from '#auth/principal'
import { portalStack } from '#start/routes/portal/stacks'

const uuid = router.matchers.uuid()

/**
 * Hosted forms, in the operator's portal (every publisher's) and a
 * publisher's (its own): the same pages; FormService decides what each sees.
 */
for (const role of ['operator', 'publisher'] satisfies PrincipalKind[]) {
  router
    .group(() => {
      router.get('forms', [controllers.portal.Forms, 'index']).as('index')
      router.get('forms/new', [controllers.portal.Forms, 'create']).as('create')
      router.post('forms', [controllers.portal.Forms, 'store']).as('store')
      router.get('forms/:id', [controllers.portal.Forms, 'show']).where('id', uuid).as('show')
      router.get('forms/:id/edit', [controllers.portal.Forms, 'edit']).where('id', uuid).as('edit')
      router.patch('forms/:id', [controllers.portal.Forms, 'update']).where('id', uuid).as('update')
    })
    .prefix(`/${role}`)
    .as(`${role}.forms`)
    .use(portalStack(role))
}
