print('local edit')
