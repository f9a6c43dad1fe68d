import { inject } from '@adonisjs/core'
import type { HttpContext } from '@adonisjs/core/http'
import { pageValidator } from '#validators/pagination'
import { paginate, pageToJson } from '#services/sql/cursor_pagination'
import UserService from '#services/access/user_service'
import { userToJson } from '#transformers/user_transformer'
import { createUserValidator, updateUserValidator } from '#validators/user'

@inject()
export default class UsersController {
  constructor(protected users: UserService) {}

  async store({ request, response, principal, bouncer }: HttpContext) {
    await bouncer.with('UserPolicy').authorize('create')
    const input = await request.validateUsing(createUserValidator)
    return response.created(userToJson(await this.users.create(principal, input)))
  }

  async index({ request, principal, bouncer }: HttpContext) {
    await bouncer.with('UserPolicy').authorize('viewList')
    const page = await paginate(
      this.users.visibleTo(principal),
      await pageValidator.validate(request.qs())
    )
    return pageToJson(page, userToJson)
  }

  async update({ params, request, principal, bouncer }: HttpContext) {
    const user = await this.users.findVisible(principal, params.id)
    await bouncer.with('UserPolicy').authorize('update')
    const input = await request.validateUsing(updateUserValidator)
    return userToJson(await this.users.update(principal, user, input))
  }
}
