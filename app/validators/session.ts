import vine from '@vinejs/vine'

export const loginValidator = vine.create({
  email: vine.string().trim().maxLength(254),
  password: vine.string().maxLength(256),
})
