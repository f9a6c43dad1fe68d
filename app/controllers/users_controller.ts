import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageValidator } from '#validators/pagination'
import { paginate } from '#services/sql/cursor_pagination'
import UserService from '#services/access/user_service'
import UserTransformer from '#transformers/user_transformer'
import { createUserValidator, updateUserValidator } from '#validators/user'

@inject()
export default class UsersController {
  constructor(protected users: UserService) {}

  async store({ request, response, principal, bouncer, serialize }: HttpContext) {
    await bouncer.with('UserPolicy').authorize('create')
    const input = await request.validateUsing(createUserValidator)
    const user = await this.users.create(principal, input)
    return response.created(await serialize(UserTransformer.transform(user)))
  }

  async index({ request, principal, bouncer, serializePage }: HttpContext) {
    await bouncer.with('UserPolicy').authorize('viewList')
    const page = await paginate(
      this.users.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    return serializePage(UserTransformer.transform(page.data), page.nextCursor)
  }

  async update({ params, request, principal, bouncer, serialize }: HttpContext) {
    const user = await this.users.findVisible(principal, params.id)
    await bouncer.with('UserPolicy').authorize('update')
    const input = await request.validateUsing(updateUserValidator)
    return serialize(UserTransformer.transform(await this.users.update(principal, user, input)))
  }
}
