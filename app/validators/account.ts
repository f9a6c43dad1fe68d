import vine, { SimpleMessagesProvider } from '@vinejs/vine'
import { strictObject } from '#validators/helpers'

/** A signed-in user changes its own password; the rules match the invitation's. */
export const changePasswordValidator = vine.create(
  strictObject({
    current_password: vine.string().maxLength(256),
    password: vine.string().minLength(12).maxLength(128).confirmed(),
    password_confirmation: vine.string().maxLength(128),
  })
)

changePasswordValidator.messagesProvider = new SimpleMessagesProvider({
  'password.minLength': 'Choose a password of at least {{ min }} characters.',
  'password.maxLength': 'Choose a password of at most {{ max }} characters.',
  'confirmed': 'The two passwords do not match.',
  'required': 'This field is required.',
})
