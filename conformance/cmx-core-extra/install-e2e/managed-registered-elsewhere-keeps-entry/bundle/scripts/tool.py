print('fixture')
