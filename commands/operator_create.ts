import { BaseCommand, flags } from '@adonisjs/core/ace'
import type { CommandOptions } from '@adonisjs/core/types/ace'
import vine from '@vinejs/vine'
import ApiProblem from '#exceptions/api_problem'
import OperatorService from '#services/access/operator_service'

const input = vine.create({
  email: vine.string().trim().email().maxLength(254),
  password: vine.string().minLength(12).maxLength(128),
})

export default class OperatorCreate extends BaseCommand {
  static commandName = 'operator:create'
  static description = 'Create an operator user and print its id and a live operator API key'
  static options: CommandOptions = { startApp: true }

  @flags.string({ description: 'E-mail address of the operator', required: true })
  declare email: string

  @flags.string({ description: 'Portal password (at least 12 characters)', required: true })
  declare password: string

  @flags.boolean({ description: 'Print one JSON object on stdout' })
  declare json: boolean

  async run() {
    const [error, data] = await input.tryValidate({ email: this.email, password: this.password })
    if (error) {
      return this.fail(
        error.messages.map((message: { message: string }) => message.message).join('; ')
      )
    }
    try {
      const operators = await this.app.container.make(OperatorService)
      const { user, apiKey } = await operators.create(data)
      if (this.json) {
        console.log(JSON.stringify({ user_id: user.id, api_key: apiKey }))
      } else {
        this.logger.success(`Operator ${user.email} created (id ${user.id})`)
        this.logger.info(`API key (shown once): ${apiKey}`)
      }
    } catch (err) {
      if (err instanceof ApiProblem) return this.fail(err.detail ?? err.message)
      throw err
    }
  }

  fail(message: string) {
    this.logger.error(message)
    this.exitCode = 1
  }
}
