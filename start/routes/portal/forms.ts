import router from '@adonisjs/core/services/router'
import type { PrincipalKind } from '#auth/principal'
import { portalStack } from '#start/routes/portal/stacks'

const FormsController = () => import('#controllers/portal/forms_controller')

const uuid = router.matchers.uuid()

/**
 * Hosted forms, in the operator's portal (every publisher's) and a
 * publisher's (its own): the same pages; FormService decides what each sees.
 */
for (const role of ['operator', 'publisher'] satisfies PrincipalKind[]) {
  router
    .group(() => {
      router.get('forms', [FormsController, 'index']).as('index')
      router.get('forms/new', [FormsController, 'create']).as('create')
      router.post('forms', [FormsController, 'store']).as('store')
      router.get('forms/:id', [FormsController, 'show']).where('id', uuid).as('show')
      router.get('forms/:id/edit', [FormsController, 'edit']).where('id', uuid).as('edit')
      router.patch('forms/:id', [FormsController, 'update']).where('id', uuid).as('update')
    })
    .prefix(`/${role}`)
    .as(`${role}.forms`)
    .use(portalStack(role))
}
